/**
 * THE function catalogue: every Lambda function of Headshot Studio, with what starts it, its size, the layers and
 * assets its bundle needs and — declared, never inferred — the access its handler needs. The CDK stack deploys every
 * entry that is not `localOnly` and derives each role's grants from `access` alone; the local stack serves every
 * entry through its in-process Lambda runtime. The route table (`functions/http/routes.ts`) says which routes reach
 * which handler module; this file says what that module's function is (docs/architecture.md §1, §6).
 *
 * An infrastructure test keeps the declarations honest: every handler module under `functions/` is catalogued, every
 * entry's module exists, and each declaration covers the calls in the module's bundle and no more (no delete where it
 * never deletes); the local stack decides every call a handler makes against its synthesized role
 * (docs/decisions/016-local-iam.md).
 */

import { DEFAULT_OPENAI_IMAGE_MODEL, DEFAULT_OPENAI_IMAGE_QUALITY } from './domain/openai-image-models';
import { FINISH_LAMBDA_SECONDS, providerTimeouts } from './domain/provider-timeouts';
import type {
  FunctionKind,
  TableAccess,
  SecretName,
  FunctionAccess,
  FunctionSpec,
  FunctionEntry,
} from './catalogue-types';
import { TEAM_FUNCTIONS } from './catalogue-teams';

export type {
  FunctionKind,
  TableAccess,
  ObjectAccess,
  SecretName,
  StateMachineAccess,
  CognitoAccess,
  FunctionAccess,
  FunctionAsset,
  CognitoTrigger,
  RateExpression,
  FunctionSpec,
  FunctionEntry,
} from './catalogue-types';

/**
 * Default timeout (s) and memory (MB) per kind:
 * - `http`/`webhook`: 29 s, under the HTTP API's 30 s integration limit, so the function fails before the gateway;
 * - `workflow`/`scheduled`/`event`: 5 minutes, 1 GB (Step Functions waits as long as it takes);
 * - `queue`: 1 minute, 256 MB (a batch of small messages; the queue's visibility timeout must outlast it);
 * - `trigger`: 5 s, the time Cognito waits for a trigger; 256 MB so the SDK's cold start fits.
 */
export const FUNCTION_DEFAULTS: Record<FunctionKind, { timeoutSeconds: number; memorySize: number }> = {
  http: { timeoutSeconds: 29, memorySize: 512 },
  webhook: { timeoutSeconds: 29, memorySize: 512 },
  workflow: { timeoutSeconds: 300, memorySize: 1024 },
  scheduled: { timeoutSeconds: 300, memorySize: 1024 },
  event: { timeoutSeconds: 300, memorySize: 1024 },
  queue: { timeoutSeconds: 60, memorySize: 256 },
  trigger: { timeoutSeconds: 5, memorySize: 256 },
};

/** Memory of functions that run the vision models, in MB: Lambda's CPU follows memory; 2048 MB is over one vCPU. */
export const VISION_MEMORY_MB = 2048;

/**
 * Memory of the CallProvider function, in MB: it waits on OpenAI for 60-150 s and holds one image, so it is sized
 * for its measured peak (docs/decisions/008-call-provider-memory.md), not for CPU.
 */
export const CALL_PROVIDER_MEMORY_MB = 512;

const READ_WRITE: readonly TableAccess[] = ['read', 'write'];
const STRIPE: readonly SecretName[] = ['stripeSecretKey', 'stripeWebhookSecret'];
/** Every function whose code may create a user (adapters/user-creation.ts) keys the bonus marker with the pepper. */
const CREATES_USERS: readonly SecretName[] = ['signupBonusPepper'];
const STRIPE_CREATES_USERS: readonly SecretName[] = [...STRIPE, ...CREATES_USERS];

/** A workflow task that only reads and writes a few items: 256 MB is enough for the SDK; `timeoutSeconds` its own. */
function smallTask(
  name: string,
  handler: string,
  timeoutSeconds: number,
  access: FunctionAccess,
): FunctionSpec {
  return { name, handler, kind: 'workflow', timeoutSeconds, memorySize: 256, access };
}

const specs: readonly FunctionSpec[] = [
  // API routes (functions/http/routes.ts).
  { handler: 'http/health', kind: 'http', access: {} },
  { handler: 'http/packs', kind: 'http', access: {} },
  { handler: 'http/me', kind: 'http', access: { table: READ_WRITE, secrets: CREATES_USERS } },
  { handler: 'http/update-me', kind: 'http', access: { table: READ_WRITE } },
  { handler: 'http/create-checkout-session', kind: 'http', access: { table: READ_WRITE, secrets: STRIPE } },
  // Verifying a paid session fulfils it (the same code as the webhook), which records `purchase_completed` and
  // sends the purchase's receipt e-mail once (issue 35).
  {
    handler: 'http/get-checkout-session',
    kind: 'http',
    access: { table: READ_WRITE, secrets: STRIPE_CREATES_USERS, analytics: true, mail: true },
  },
  {
    handler: 'webhooks/stripe',
    kind: 'webhook',
    access: { table: READ_WRITE, secrets: STRIPE_CREATES_USERS, analytics: true, mail: true },
  },
  // Presigned POSTs need s3:PutObject; the per-user quota is one transaction, and a refused one reads (GetItem) whether
  // the account is being deleted (409) or deleted (410) (adapters/quotas.ts).
  { handler: 'http/create-uploads', kind: 'http', access: { table: READ_WRITE, uploads: ['write'] } },
  {
    handler: 'http/create-generation',
    kind: 'http',
    access: { table: READ_WRITE, uploads: ['read', 'list'], stateMachine: ['start'], secrets: CREATES_USERS },
  },
  // The wizard's poll reconciles a generation whose execution ended (DescribeExecution) and presigns its results.
  {
    handler: 'http/get-generation',
    kind: 'http',
    access: { table: READ_WRITE, results: ['read'], partial: ['read', 'list'], stateMachine: ['describe'] },
  },
  {
    handler: 'http/create-photo-checks',
    kind: 'http',
    assets: ['sharp-layer', 'vision-models'],
    access: { table: READ_WRITE, uploads: ['read', 'list'] },
  },
  // The gallery's counters are rebuilt and cached on the user item when missing.
  { handler: 'http/list-headshots', kind: 'http', access: { table: READ_WRITE, results: ['read'] } },
  { handler: 'http/update-headshot', kind: 'http', access: { table: READ_WRITE, results: ['read'] } },
  { handler: 'http/download-headshot', kind: 'http', access: { table: ['read'], results: ['read'] } },
  { handler: 'http/list-headshot-versions', kind: 'http', access: { table: ['read'], results: ['read'] } },
  { handler: 'http/list-purchases', kind: 'http', access: { table: ['read'] } },
  // The wizard's draft: its one item, written only while the account is not being deleted (a ConditionCheck, and a
  // GetItem of the user item to say why not) and deleted when an empty draft is saved; reading it heads each upload
  // it names, to leave out the ones gone.
  { handler: 'http/get-draft', kind: 'http', access: { table: ['read'], uploads: ['read', 'list'] } },
  { handler: 'http/save-draft', kind: 'http', access: { table: ['read', 'write', 'delete'] } },
  { handler: 'http/delete-draft', kind: 'http', access: { table: ['delete'] } },
  // Teams (docs/teams.md): their routes' functions, in ./catalogue-teams.ts.
  ...TEAM_FUNCTIONS,
  {
    handler: 'http/delete-headshot',
    kind: 'http',
    access: { table: ['read', 'write', 'delete'], results: ['delete'] },
  },
  // A version: its files, then its item with the headshot's versionCount − 1 in one transaction (issue 36).
  {
    handler: 'http/delete-headshot-version',
    kind: 'http',
    access: { table: ['read', 'write', 'delete'], results: ['delete'] },
  },
  {
    handler: 'http/regenerate-headshot',
    kind: 'http',
    access: { table: READ_WRITE, uploads: ['read', 'list'], stateMachine: ['start'], secrets: CREATES_USERS },
  },
  // An edit starts a one-slot generation as a regeneration does: the same reads, spend and start.
  {
    handler: 'http/edit-headshot',
    kind: 'http',
    access: { table: READ_WRITE, uploads: ['read', 'list'], stateMachine: ['start'], secrets: CREATES_USERS },
  },
  {
    handler: 'http/delete-my-data',
    kind: 'http',
    access: { table: ['read', 'write', 'delete'], uploads: ['delete', 'list'], results: ['delete', 'list'] },
  },
  // Delete my account: the user's data (as delete-my-data), its open Checkout Sessions expired, the accounting moved
  // to a pseudonym, the Cognito user.
  {
    handler: 'http/delete-account',
    kind: 'http',
    access: {
      table: ['read', 'write', 'delete'],
      secrets: STRIPE,
      uploads: ['delete', 'list'],
      results: ['delete', 'list'],
      cognito: ['AdminDeleteUser'],
    },
  },
  // Public, so visits before sign-in count: a per-IP quota (UpdateItem) and the Firehose stream.
  { handler: 'http/analytics-events', kind: 'http', access: { table: ['write'], analytics: true } },

  // Cognito triggers. PreSignUp auto-confirms local accounts (cognito-local cannot e-mail codes): local only.
  {
    name: 'cognito-pre-sign-up',
    handler: 'triggers/local-pre-sign-up',
    kind: 'trigger',
    cognitoTrigger: 'PreSignUp',
    localOnly: true,
    access: {},
  },
  {
    name: 'cognito-post-confirmation',
    handler: 'triggers/post-confirmation',
    kind: 'trigger',
    cognitoTrigger: 'PostConfirmation',
    timeoutSeconds: 10,
    // The user item, then the welcome e-mail once (its marker on the user item; issue 35).
    access: { table: READ_WRITE, secrets: CREATES_USERS, mail: true },
  },

  // Generation workflow tasks (statemachines/generation.asl.json refers to each as ${<PascalCaseName>FunctionArn}).
  // Decoding up to 10 photos (HEIC in WebAssembly) and running the models needs memory and CPU.
  {
    name: 'generation-prepare-references',
    handler: 'workflow/prepare-references',
    kind: 'workflow',
    timeoutSeconds: 120,
    assets: ['sharp-layer', 'vision-models'],
    access: { table: READ_WRITE, uploads: ['read', 'write', 'list'] },
  },
  smallTask('generation-build-prompt', 'workflow/build-prompt', 10, { table: READ_WRITE }),
  // The provider line: EnterLine puts the slot's ticket (its Task then waits for its token, no Lambda running).
  smallTask('generation-enter-provider-line', 'workflow/enqueue-provider-call', 20, { table: READ_WRITE }),
  // Gives the lease back: its item's delete and the gate's counter, in one transaction.
  smallTask('generation-release-provider-slot', 'workflow/release-provider-slot', 20, {
    table: ['read', 'write', 'delete'],
  }),
  // One provider call per invocation, in a function sized for waiting (docs/decisions/008-call-provider-memory.md):
  // the client gives up at the default model and quality's worst case × 1.5 and the Lambda outlives it by the work
  // around the call, so a slow call fails as the named, retryable ProviderTimeoutError
  // (functions/domain/provider-timeouts.ts; the stack sets it for the configured model, and the vision memory when
  // the offline provider, which composites with the face models, is configured). It reads the references (and, for an
  // edit, the headshot's own stored file from the results bucket) and writes the provider's bytes to work/, nothing
  // else.
  {
    name: 'generation-call-provider',
    handler: 'workflow/call-provider',
    kind: 'workflow',
    timeoutSeconds: providerTimeouts(DEFAULT_OPENAI_IMAGE_MODEL, DEFAULT_OPENAI_IMAGE_QUALITY).lambdaSeconds,
    memorySize: CALL_PROVIDER_MEMORY_MB,
    assets: ['sharp-layer', 'vision-models'],
    access: {
      table: READ_WRITE,
      uploads: ['read', 'list'],
      results: ['read'],
      work: ['write'],
      partial: ['write', 'delete'],
      secrets: ['openAiApiKey'],
    },
  },
  // The provider's image from work/ → likeness check, encodes, the headshot: the CPU work, at the vision memory.
  // It deletes the work/ object, and the results it wrote for a slot refunded meanwhile.
  {
    name: 'generation-finish-headshot',
    handler: 'workflow/finish-headshot',
    kind: 'workflow',
    timeoutSeconds: FINISH_LAMBDA_SECONDS,
    assets: ['sharp-layer', 'vision-models'],
    access: {
      table: READ_WRITE,
      uploads: ['read', 'list'],
      results: ['write', 'delete'],
      work: ['read', 'delete', 'list'],
      partial: ['delete'],
    },
  },
  smallTask('generation-finalize', 'workflow/finalize', 30, { table: READ_WRITE }),
  smallTask('generation-refund-credits', 'workflow/refund-credits', 30, { table: READ_WRITE }),
  smallTask('generation-mark-failed', 'workflow/mark-failed', 15, { table: READ_WRITE }),
  // The "headshots ready" e-mail (SES in the cloud, SMTP to the local mail catcher); never fails the generation.
  smallTask('generation-notify-customer', 'workflow/notify-customer', 20, { table: READ_WRITE, mail: true }),
  // Run by an EventBridge rule when an execution ends FAILED/TIMED_OUT/ABORTED; locally the wizard's poll reconciles.
  {
    name: 'generation-execution-ended',
    handler: 'workflow/execution-ended',
    kind: 'event',
    timeoutSeconds: 30,
    memorySize: 256,
    access: { table: READ_WRITE },
  },
  // Reconciles generations still not terminal past their deadline, and removes their sweep markers; deletes the
  // reference descriptor of every ended generation and, a year on, its headshots.
  {
    name: 'generation-sweeper',
    handler: 'scheduled/sweep-generations',
    kind: 'scheduled',
    timeoutSeconds: 120,
    memorySize: 256,
    schedule: 'rate(5 minutes)',
    // Also ends the retention of headshots (docs/decisions/011-retention.md): their files go from the results bucket.
    access: { table: ['read', 'write', 'delete'], results: ['delete'] },
  },
  // The provider queue's dispatcher (functions/queue-catalogue.ts `admission-wakeup`): admits the head of the line and resumes
  // the waiting Tasks with their leases (SendTaskSuccess/SendTaskFailure).
  {
    name: 'provider-dispatcher',
    handler: 'queues/dispatch-provider-queue',
    kind: 'queue',
    timeoutSeconds: 60,
    memorySize: 256,
    access: { table: ['read', 'write', 'delete'], stateMachine: ['callback'] },
  },
  // The data buckets' S3 lifecycle expirations, applied by hand to the local S3 (s3rver has no lifecycle rules).
  {
    name: 'local-object-expiry',
    handler: 'scheduled/local-object-expiry',
    kind: 'scheduled',
    localOnly: true,
    timeoutSeconds: 300,
    memorySize: 256,
    schedule: 'rate(1 hour)',
    access: { uploads: ['list', 'delete'], results: ['list', 'delete'] },
  },
  // Gives back the provider leases of crashed holders and wakes the dispatcher (a lost wake-up's safety net).
  {
    name: 'provider-lease-reaper',
    handler: 'scheduled/reap-provider-leases',
    kind: 'scheduled',
    timeoutSeconds: 60,
    memorySize: 256,
    schedule: 'rate(1 minute)',
    access: { table: ['read', 'write', 'delete'] },
  },
  // Reads the configured OpenAI model's shutdown_date once a day for the shutdown alarms (issue 34, item 7): the
  // OpenAI key and nothing else.
  {
    name: 'provider-calendar',
    handler: 'scheduled/check-provider-calendar',
    kind: 'scheduled',
    timeoutSeconds: 60,
    memorySize: 256,
    schedule: 'rate(24 hours)',
    access: { secrets: ['openAiApiKey'] },
  },
];

/**
 * The function name of a handler module that has no explicit name: its path with `/` → `-` (`http/me` → `http-me`,
 * `webhooks/stripe` → `webhooks-stripe`).
 */
export function defaultFunctionName(handler: string): string {
  return handler.replaceAll('/', '-');
}

function withDefaults(spec: FunctionSpec): FunctionEntry {
  const assets = spec.assets ?? [];
  const defaults = FUNCTION_DEFAULTS[spec.kind];
  return {
    ...spec,
    name: spec.name ?? defaultFunctionName(spec.handler),
    timeoutSeconds: spec.timeoutSeconds ?? defaults.timeoutSeconds,
    memorySize:
      spec.memorySize ??
      (assets.includes('vision-models')
        ? Math.max(VISION_MEMORY_MB, defaults.memorySize)
        : defaults.memorySize),
    assets,
  };
}

/** Every function, defaults applied, in the order above. */
export const catalogue: readonly FunctionEntry[] = specs.map(withDefaults);

/** Every function the cloud deploys (not `localOnly`). */
export const deployedFunctions: readonly FunctionEntry[] = catalogue.filter((f) => !f.localOnly);

/**
 * The catalogue entry of a handler module (`http/me`) or function name (`http-me`, `generation-sweeper`).
 *
 * @throws {Error} when nothing in the catalogue matches: a new handler needs an entry above.
 */
export function catalogueEntry(handlerOrName: string): FunctionEntry {
  const entry = catalogue.find((f) => f.handler === handlerOrName || f.name === handlerOrName);
  if (!entry) {
    throw new Error(
      `${handlerOrName} is not in the function catalogue (functions/catalogue.ts): add an entry with its kind and access`,
    );
  }
  return entry;
}

/**
 * THE rule "handler module → function name": the catalogue's name of the function that runs `handler`
 * (`http/me` → `http-me`, `workflow/build-prompt` → `generation-build-prompt`). Used by the CDK stack, the local
 * stack and the tests, so a route and its function are named the same everywhere.
 *
 * @throws {Error} when the handler is not catalogued.
 */
export function functionNameOf(handler: string): string {
  return catalogueEntry(handler).name;
}
