/**
 * The shapes of the function catalogue (functions/catalogue.ts): what starts a function, the access it declares, its
 * assets and its settings. Kept apart so the catalogue itself holds only the entries and their defaults.
 */

/** What invokes a function; it sets the default timeout and memory (`FUNCTION_DEFAULTS` in ./catalogue.ts). */
export type FunctionKind =
  /** An API route (API Gateway HTTP API, payload v2). */
  | 'http'
  /** A route called by a third party that signs its requests (Stripe). */
  | 'webhook'
  /** A Task of the generation state machine. */
  | 'workflow'
  /** A Cognito user pool trigger. */
  | 'trigger'
  /** Run on an EventBridge Scheduler rate. */
  | 'scheduled'
  /** Run by an EventBridge rule (Step Functions execution status changes). */
  | 'event'
  /** Fed batches of messages by an SQS event source mapping (functions/queue-catalogue.ts). */
  | 'queue';

/** Item operations on the single table: `read` (Get, BatchGet, Query), `write` (Put, Update, condition checks in
 *  transactions), `delete` (Delete, BatchWrite of delete requests). Never Scan. */
export type TableAccess = 'read' | 'write' | 'delete';

/** Object operations in one bucket, always under its one prefix (`uploads/`, `results/`). `write` covers presigned
 *  POSTs; `list` lets a HeadObject/GetObject of a missing key answer 404 instead of 403. */
export type ObjectAccess = 'read' | 'write' | 'delete' | 'list';

/** The Secrets Manager secrets a function may read (each reaches the code as a plain variable, functions/config/). */
/** `signupBonusPepper`: only for the functions whose code creates users (adapters/user-creation.ts `ensureUser`). */
export type SecretName = 'stripeSecretKey' | 'stripeWebhookSecret' | 'openAiApiKey' | 'signupBonusPepper';

/**
 * Calls on the generation state machine: start an execution, describe one of its executions, answer a waiting
 * Task's token (`callback`: SendTaskSuccess, SendTaskFailure, SendTaskHeartbeat).
 */
export type StateMachineAccess = 'start' | 'describe' | 'callback';

/** Cognito user pool administration calls (IAM action names without the `cognito-idp:` prefix). */
export type CognitoAccess =
  'AdminDeleteUser' | 'AdminGetUser' | 'AdminUpdateUserAttributes' | 'AdminUserGlobalSignOut';

/** Everything a function may touch besides its own log group and X-Ray traces. Omitted: no access. */
export interface FunctionAccess {
  table?: readonly TableAccess[];
  uploads?: readonly ObjectAccess[];
  results?: readonly ObjectAccess[];
  /**
   * In the results bucket under `work/` (domain/object-keys.ts, WORK_PREFIX): the provider's raw images between the
   * CallProvider and FinishHeadshot tasks. No customer-facing function gets it, so no presigned URL can reach it.
   */
  work?: readonly ObjectAccess[];
  /**
   * In the results bucket under `partial/` (domain/object-keys.ts, PARTIAL_PREFIX): the latest partial image of a
   * streaming slot. Written by CallProvider, deleted by FinishHeadshot, read only by the generation view to presign it.
   */
  partial?: readonly ObjectAccess[];
  secrets?: readonly SecretName[];
  stateMachine?: readonly StateMachineAccess[];
  /** On the user pool the stack creates. */
  cognito?: readonly CognitoAccess[];
  /** `firehose:PutRecord(Batch)` on the analytics stream. */
  analytics?: boolean;
  /** `ses:SendEmail` as the configured sender (context `mailFrom`; without it no grant and no mail). */
  mail?: boolean;
}

/** What a function's bundle needs beside its code: the sharp layer (sharp, heic-convert for linux-arm64) and the
 *  face and person models with their wasm (copied into the bundle's `vision/` folder). */
export type FunctionAsset = 'sharp-layer' | 'vision-models';

/** Cognito trigger names, as cognito-local's config and CloudFormation's `LambdaConfig` spell them. */
export type CognitoTrigger = 'PreSignUp' | 'PostConfirmation';

/** An EventBridge Scheduler rate expression. */
export type RateExpression = `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours'})`;

/** One catalogue entry as written below. */
export interface FunctionSpec {
  /** The function name (letters, digits, `-`): default {@link defaultFunctionName} of the handler. */
  name?: string;
  /** The handler module under `functions/`, without extension; it exports `handler`. */
  handler: string;
  kind: FunctionKind;
  /** Seconds; default per kind. */
  timeoutSeconds?: number;
  /** MB; default per kind ({@link VISION_MEMORY_MB} with the vision models). */
  memorySize?: number;
  assets?: readonly FunctionAsset[];
  access: FunctionAccess;
  /** `scheduled` functions: how often. */
  schedule?: RateExpression;
  /** `trigger` functions: which user pool trigger. */
  cognitoTrigger?: CognitoTrigger;
  /** Served by the local stack only, never deployed (e.g. the local auto-confirm trigger). */
  localOnly?: boolean;
}

/** A catalogue entry with every default applied. */
export interface FunctionEntry extends FunctionSpec {
  name: string;
  timeoutSeconds: number;
  memorySize: number;
  assets: readonly FunctionAsset[];
}
