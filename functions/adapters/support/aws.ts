import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import { runtimeSettings } from '../../config/runtime';
import { onConfigReset } from '../../config/settings';
import { retryThrottledTransactions } from './dynamodb-throttling';
import { tracedClient } from '../../common/tracer';

/*
 * AWS SDK clients, created once per execution environment (not per request) so connections are reused across
 * invocations. Each client honours AWS_ENDPOINT_URL (and the service-specific AWS_ENDPOINT_URL_<SERVICE>) natively,
 * which is how the same handlers run against the local emulators, LocalStack or `sam local`. In Lambda every call
 * is an X-Ray subsegment (common/tracer.ts). Every client of functions/ is made through {@link awsClient}, so what the
 * process adds to clients (the local stack's IAM check, infrastructure/local/iam/) reaches all of them.
 */

/** What an extension may touch of a client: its middleware stack and its resolved configuration. */
export interface ExtensibleClient {
  middlewareStack: { use(plugin: { applyToStack(stack: never): void }): void };
  config: object;
}

/** Something added to every client this process makes (e.g. the local stack's IAM check); never set in Lambda. */
export type ClientExtension = (client: ExtensibleClient) => void;

const extensions = new Set<ClientExtension>();
const clients: ExtensibleClient[] = [];

/**
 * Adds `extension` to every client made so far and every client made from now on; the same extension twice is
 * added once. Used by the local stack only (infrastructure/local/iam/), before or after handlers first ran.
 */
export function extendClients(extension: ClientExtension): void {
  if (extensions.has(extension)) return;
  extensions.add(extension);
  for (const client of clients) extension(client);
}

/**
 * THE way functions/ makes an AWS SDK client: traced (common/tracer.ts) and given the process's
 * {@link extendClients} extensions. `client` is a new client; the same client is returned.
 */
export function awsClient<T extends ExtensibleClient>(client: T): T {
  clients.push(client);
  for (const extension of extensions) extension(client);
  return tracedClient(client);
}

let dynamo: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let sfn: SFNClient | undefined;
let sqs: SQSClient | undefined;
// A test that points the process at other endpoints resets the configuration; the clients go with it.
onConfigReset(() => {
  dynamo = undefined;
  s3 = undefined;
  sfn = undefined;
  sqs = undefined;
});

/**
 * The DynamoDB document client (marshalls plain JS objects; `undefined` attributes are dropped). A transaction
 * cancelled only by throttling is retried like any throttled request and, past the SDK's attempts, thrown as
 * `TransactionThrottledError` (adapters/dynamodb-throttling.ts).
 *
 * Without the SDK's logger middleware: the client is given no logger, yet that middleware copies every input and
 * output through the sensitive-data filter for the no-op one — a walk of every item read (about a seventh of the
 * client's CPU per 30-item Query, measured with test/bench/profile-gallery.ts). Our own logger logs what matters.
 */
export function documentClient(): DynamoDBDocumentClient {
  if (!dynamo) {
    const { AWS_REGION } = runtimeSettings();
    const client = awsClient(new DynamoDBClient({ region: AWS_REGION }));
    client.middlewareStack.remove('loggerMiddleware');
    // A throttled transaction is retried by the SDK and then named like the throttle it is (the workflow retries it).
    retryThrottledTransactions(client);
    dynamo = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  }
  return dynamo;
}

/** The S3 client; path-style addressing when `S3_FORCE_PATH_STYLE` is set (s3rver, LocalStack). */
export function s3Client(): S3Client {
  if (!s3) {
    const { AWS_REGION, S3_FORCE_PATH_STYLE } = runtimeSettings();
    s3 = awsClient(new S3Client({ region: AWS_REGION, forcePathStyle: S3_FORCE_PATH_STYLE }));
  }
  return s3;
}

/** The Step Functions client. */
export function sfnClient(): SFNClient {
  if (!sfn) {
    const { AWS_REGION } = runtimeSettings();
    sfn = awsClient(new SFNClient({ region: AWS_REGION }));
  }
  return sfn;
}

/**
 * The SQS client (`AWS_ENDPOINT_URL_SQS` points it at the local emulator). Queue URLs come from the environment
 * (functions/queue-catalogue.ts, `queueUrlVariable`). It sends to the endpoint it resolved, not to the host of the queue URL:
 * a local emulator's URLs name a host (`sqs.<region>.localhost`) that does not resolve.
 */
export function sqsClient(): SQSClient {
  if (!sqs) {
    const { AWS_REGION } = runtimeSettings();
    sqs = awsClient(new SQSClient({ region: AWS_REGION, useQueueUrlAsEndpoint: false }));
  }
  return sqs;
}
