import { join } from 'node:path';
import { ensureTable, ensureUserPool, type UserPoolIds } from '../bootstrap';
import { startCognito } from '../stand-ins/cognito/cognito-local';
import { startDynamoDb } from '../stand-ins/dynamodb/dynamodb-local';
import { COGNITO_TRIGGERS } from '../stand-ins/lambda/runtime';
import { startS3 } from '../stand-ins/s3/s3rver';
import type { IamCheck } from '../iam/caller';
import { LocalStackError } from '../support/errors';
import { rememberChildren } from '../support/pids';
import { LOCAL_NAMES, type LocalPorts } from '../support/settings';
import type { DataDir, PartLogs, Teardown } from './lifecycle';

/** The data emulators of the local stack, running, with the table and the user pool in place. */
export interface Emulators {
  /** Amazon DynamoDB Local (`AWS_ENDPOINT_URL_DYNAMODB`). */
  dynamodbEndpoint: string;
  /** s3rver behind its POST-policy front (`AWS_ENDPOINT_URL_S3`), path-style. */
  s3Endpoint: string;
  /** cognito-local (`AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER`), also the issuer domain of its tokens. */
  cognitoEndpoint: string;
  /** The local user pool and its web app client. */
  pool: UserPoolIds;
}

/**
 * Starts the three emulators in child processes, together: DynamoDB Local (its tables in `<data dir>/dynamodb`, or
 * in memory for a temporary data dir), s3rver with both buckets and CORS for the site's origins, and cognito-local,
 * whose triggers it invokes through the local Lambda API at `lambdaUrl`. Then creates the single table and the user
 * pool when missing (bootstrap.ts). Their pids go to the data dir's record (support/pids.ts) and their stops to
 * `teardown`.
 *
 * @param siteOrigins where the SPA runs: the origins the buckets allow for presigned POSTs and GETs
 * @throws {LocalStackError} for missing Java (DynamoDB Local) or a bad LOCAL_TOKEN_LIFETIME_SECONDS.
 */
export async function startEmulators(
  options: {
    ports: Pick<LocalPorts, 'dynamodb' | 's3' | 'cognito'>;
    dataDir: DataDir;
    region: string;
    siteOrigins: string[];
    lambdaUrl: string;
    /** `LOCAL_TOKEN_LIFETIME_SECONDS` from the configured environment, see {@link tokenLifetimeSeconds}. */
    tokenLifetime: string | undefined;
    logs: PartLogs;
    /** Decides presigned S3 requests under their signer's role (infrastructure/local/iam/); none: unchecked. */
    iam?: IamCheck;
  },
  teardown: Teardown,
): Promise<Emulators> {
  const { ports, dataDir, region, logs } = options;
  const lifetime = tokenLifetimeSeconds(options.tokenLifetime);
  const [dynamodb, s3, cognito] = await Promise.all([
    startDynamoDb({
      port: ports.dynamodb,
      dataDir: dataDir.temporary ? undefined : join(dataDir.path, 'dynamodb'),
      log: logs('dynamodb'),
    }),
    startS3({
      port: ports.s3,
      dataDir: join(dataDir.path, 's3'),
      buckets: [LOCAL_NAMES.uploadsBucket, LOCAL_NAMES.resultsBucket],
      corsOrigins: options.siteOrigins,
      log: logs('s3'),
      iam: options.iam,
    }),
    startCognito({
      port: ports.cognito,
      dataDir: join(dataDir.path, 'cognito'),
      log: logs('cognito'),
      lambdaEndpoint: options.lambdaUrl,
      triggers: COGNITO_TRIGGERS,
    }),
  ]);
  teardown.add(dynamodb.stop, s3.stop, cognito.stop);
  rememberChildren(dataDir.path, [dynamodb.process, s3.process, cognito.process]);

  const [, pool] = await Promise.all([
    ensureTable({ endpoint: dynamodb.endpoint, region, tableName: LOCAL_NAMES.table }),
    ensureUserPool({
      endpoint: cognito.endpoint,
      region,
      stateFile: join(dataDir.path, 'stack-state.json'),
      poolName: LOCAL_NAMES.userPool,
      tokenLifetimeSeconds: lifetime,
    }),
  ]);
  return {
    dynamodbEndpoint: dynamodb.endpoint,
    s3Endpoint: s3.endpoint,
    cognitoEndpoint: cognito.endpoint,
    pool,
  };
}

/**
 * Lifetime of the local pool's access and ID tokens, in seconds: `LOCAL_TOKEN_LIFETIME_SECONDS`, default 900 (the
 * 15 minutes of the cloud client). Short lifetimes let tests watch the SPA refresh its session.
 *
 * @throws {LocalStackError} for a value that is not a whole number of seconds from 35 to 86400
 */
export function tokenLifetimeSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 900;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 35 || seconds > 86_400) {
    throw new LocalStackError(
      `LOCAL_TOKEN_LIFETIME_SECONDS is "${value}".`,
      'Set it to a whole number of seconds from 35 to 86400 in .env, or remove it (default 900).',
    );
  }
  return seconds;
}
