import type { RouteAuth } from '../../functions/http/routes';
import type { FunctionKind } from './app-function';
import type { SecretName } from './secrets';

/** S3 object operations a function may perform in one bucket. */
export type ObjectAccess = 'read' | 'write' | 'delete' | 'list';

/** Everything a function may touch besides its own logs and traces. */
export interface FunctionAccess {
  /** Item reads and writes on the table (never Scan): see TABLE_ACTIONS. */
  table: boolean;
  /** In the uploads bucket, always limited to `uploads/*`. */
  uploads: ObjectAccess[];
  /** In the results bucket, always limited to `results/*`. */
  results: ObjectAccess[];
  /** `states:StartExecution` on the generation state machine and `states:DescribeExecution` on its executions. */
  workflow: boolean;
  /** Secrets read at cold start. */
  secrets: SecretName[];
  /** `firehose:PutRecord(Batch)` on the analytics stream (the code records analytics events). */
  analytics: boolean;
}

/** What {@link accessFor} needs to know about a function. */
export interface FunctionDescriptor {
  name: string;
  handler: string;
  kind: FunctionKind;
  /** For `http` functions: the auth of every route the module serves. */
  routeAuth?: readonly RouteAuth[];
  /** The npm packages the handler's code imports (its module graph). */
  packages: readonly string[];
  /** Names imported from each `@aws-sdk/*` package in the module graph (`*`: anything). */
  sdkImports?: Readonly<Record<string, readonly string[]>>;
}

/** The S3 object operations and Step Functions use the code shows, from the SDK names it imports. */
export function awsUsage(sdkImports: Readonly<Record<string, readonly string[]>> = {}): {
  s3: ObjectAccess[];
  workflow: boolean;
  analytics: boolean;
  table: boolean;
} {
  const names = (pkg: string) => sdkImports[pkg] ?? [];
  const uses = (pkg: string, pattern: RegExp) => names(pkg).some((n) => n === '*' || pattern.test(n));
  const s3: ObjectAccess[] = [];
  const presignsGet = names('@aws-sdk/s3-request-presigner').length > 0;
  const read = uses('@aws-sdk/client-s3', /^(Get|Head)Object(Command)?$/) || presignsGet;
  if (read) s3.push('read');
  if (
    uses('@aws-sdk/client-s3', /^(PutObject|CopyObject|CreateMultipartUpload|UploadPart)(Command)?$/) ||
    names('@aws-sdk/s3-presigned-post').length > 0 ||
    names('@aws-sdk/lib-storage').length > 0
  )
    s3.push('write');
  if (uses('@aws-sdk/client-s3', /^DeleteObjects?(Command)?$/)) s3.push('delete');
  // HeadObject of a missing key answers 404 (not 403) only with ListBucket.
  if (read || uses('@aws-sdk/client-s3', /^ListObjects(V2)?(Command)?$/)) s3.push('list');
  const workflow = uses('@aws-sdk/client-sfn', /^(StartExecution|DescribeExecution)(Command)?$/);
  const analytics = uses('@aws-sdk/client-firehose', /^PutRecord(Batch)?(Command)?$/);
  const table = uses('@aws-sdk/lib-dynamodb', /Command$/) || uses('@aws-sdk/client-dynamodb', /Command$/);
  return { s3, workflow, analytics, table };
}

const STRIPE: SecretName[] = ['stripeSecretKey', 'stripeWebhookSecret'];

/**
 * Least-privilege grants, decided in this one place (unit-tested). The function's role and its routes' auth set the
 * ceiling; the code narrows it: S3 operations and Step Functions calls are granted only when the handler's module
 * graph imports the SDK commands that need them ({@link awsUsage}).
 *
 * | function | table | uploads/ (ceiling) | results/ (ceiling) | workflow (ceiling) |
 * |---|---|---|---|---|
 * | HTTP, only `public` routes (`/health`, `/packs`, analytics) | rw if its code uses DynamoDB | – | – | – |
 * | HTTP, `stripe-signature` route (the webhook) | rw | – | – | – |
 * | HTTP, `jwt` routes | rw | read, write (presign), delete, list | read, delete, list | start + describe |
 * | workflow task `generation-*` | rw | read, write, list | read, write, delete, list | – |
 * | Cognito trigger `cognito-*`, other catalogue functions | rw | – | – | – |
 *
 * Secrets follow the code: a function whose module graph imports `stripe` reads both Stripe secrets
 * (`functions/config.ts` requires the webhook secret whenever the key is set); one that imports `openai` reads the
 * OpenAI key. Nothing else sees a secret. Any function whose code puts Firehose records may write to the analytics
 * stream (the analytics route, and the fulfilment's `purchase_completed`).
 */
export function accessFor(fn: FunctionDescriptor): FunctionAccess {
  const secrets: SecretName[] = [
    ...(fn.packages.includes('stripe') ? STRIPE : []),
    ...(fn.packages.includes('openai') ? (['openAiApiKey'] as const) : []),
  ];
  const used = awsUsage(fn.sdkImports);
  const none: FunctionAccess = {
    table: false,
    uploads: [],
    results: [],
    workflow: false,
    secrets,
    analytics: used.analytics,
  };
  const within = (ceiling: ObjectAccess[]) => ceiling.filter((op) => used.s3.includes(op));
  if (fn.kind === 'http') {
    const auth = new Set(fn.routeAuth ?? []);
    if (auth.has('jwt')) {
      return {
        ...none,
        table: true,
        uploads: within(['read', 'write', 'delete', 'list']),
        results: within(['read', 'delete', 'list']),
        workflow: used.workflow,
      };
    }
    // A public route reaches the table only when its code does (the analytics route's per-IP rate limit).
    return auth.has('stripe-signature') ? { ...none, table: true } : { ...none, table: used.table };
  }
  if (fn.kind === 'task' && fn.name.startsWith('generation-')) {
    return {
      ...none,
      table: true,
      uploads: within(['read', 'write', 'list']),
      results: within(['read', 'write', 'delete', 'list']),
    };
  }
  return { ...none, table: true };
}
