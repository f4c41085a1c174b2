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
  return { s3, workflow };
}

const STRIPE: SecretName[] = ['stripeSecretKey', 'stripeWebhookSecret'];

/**
 * Least-privilege grants, decided in this one place (unit-tested). The function's role and its routes' auth set the
 * ceiling; the code narrows it: S3 operations and Step Functions calls are granted only when the handler's module
 * graph imports the SDK commands that need them ({@link awsUsage}).
 *
 * | function | table | uploads/ (ceiling) | results/ (ceiling) | workflow (ceiling) |
 * |---|---|---|---|---|
 * | HTTP, only `public` routes (`/health`, `/packs`) | – | – | – | – |
 * | HTTP, `stripe-signature` route (the webhook) | rw | – | – | – |
 * | HTTP, `jwt` routes | rw | read, write (presign), delete, list | read, delete, list | start + describe |
 * | workflow task `generation-*` | rw | read, write, list | read, write, delete, list | – |
 * | Cognito trigger `cognito-*`, other catalogue functions | rw | – | – | – |
 *
 * Secrets follow the code: a function whose module graph imports `stripe` reads both Stripe secrets
 * (`functions/config.ts` requires the webhook secret whenever the key is set); one that imports `openai` reads the
 * OpenAI key. Nothing else sees a secret.
 */
export function accessFor(fn: FunctionDescriptor): FunctionAccess {
  const secrets: SecretName[] = [
    ...(fn.packages.includes('stripe') ? STRIPE : []),
    ...(fn.packages.includes('openai') ? (['openAiApiKey'] as const) : []),
  ];
  const none: FunctionAccess = { table: false, uploads: [], results: [], workflow: false, secrets };
  const used = awsUsage(fn.sdkImports);
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
    return auth.has('stripe-signature') ? { ...none, table: true } : none;
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
