import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod';
import { S3RVER_CREDENTIALS } from './stand-ins/s3/s3rver';

/** Where an emulator answers: what the clients of this module need to reach it. */
export interface EmulatorEndpoint {
  /** e.g. `http://127.0.0.1:8000` */
  endpoint: string;
  region: string;
}

/** An SDK client's configuration for an emulator, signed with the local stack's one key pair. */
const emulatorClientConfig = ({ endpoint, region }: EmulatorEndpoint) => ({
  endpoint,
  region,
  credentials: S3RVER_CREDENTIALS,
});

/**
 * Creates the single table if it does not exist yet (idempotent): string keys `PK` and `SK` (docs/architecture.md §2),
 * on-demand billing — the same keys the CDK Data construct declares.
 */
export async function ensureTable(options: EmulatorEndpoint & { tableName: string }): Promise<void> {
  const client = new DynamoDBClient(emulatorClientConfig(options));
  try {
    if (!(await tableExists(client, options.tableName))) await createTable(client, options.tableName);
    await ensureTtl(client, options.tableName);
  } finally {
    client.destroy();
  }
}

async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    return false;
  }
}

/** Creates the table and waits until it is active; a table another start created meanwhile is fine. */
async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
}

/**
 * Turns on the same TTL attribute as the CDK Data construct, `expiresAt` (quota windows and other short-lived items
 * expire by it); a table made before it existed gets it on the next start.
 */
async function ensureTtl(client: DynamoDBClient, tableName: string): Promise<void> {
  const { TimeToLiveDescription } = await client.send(
    new DescribeTimeToLiveCommand({ TableName: tableName }),
  );
  if (TimeToLiveDescription?.AttributeName === 'expiresAt') return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    }),
  );
}

/** The ids of the local user pool and its web app client. */
export interface UserPoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

const userPoolIdsSchema = z.object({ userPoolId: z.string().min(1), userPoolClientId: z.string().min(1) });

/**
 * Makes sure the local user pool and its app client exist, creating them on first start. Their ids are remembered
 * in `stateFile` so a restart reuses them (and every account made before it).
 *
 * The pool mirrors the cloud one (docs/architecture.md §6): e-mail as user name, e-mail auto-verified, the same password
 * policy; the client allows USER_PASSWORD_AUTH (cognito-local has no SRP) and refresh, with access/ID tokens of
 * `tokenLifetimeSeconds` (15 minutes by default) and 30-day refresh tokens (docs/product-spec.md, limits).
 */
export async function ensureUserPool(
  options: EmulatorEndpoint & {
    stateFile: string;
    poolName: string;
    /** Lifetime of access and ID tokens in seconds (default 900); applied to an existing client too. */
    tokenLifetimeSeconds?: number;
  },
): Promise<UserPoolIds> {
  const lifetime = options.tokenLifetimeSeconds ?? 900;
  const tokenValidity = {
    AccessTokenValidity: lifetime,
    IdTokenValidity: lifetime,
    RefreshTokenValidity: 30,
    TokenValidityUnits: { AccessToken: 'seconds', IdToken: 'seconds', RefreshToken: 'days' },
  } as const;
  const client = new CognitoIdentityProviderClient(emulatorClientConfig(options));
  try {
    if (existsSync(options.stateFile)) {
      const saved = userPoolIdsSchema.safeParse(JSON.parse(readFileSync(options.stateFile, 'utf8')));
      if (saved.success) {
        try {
          await client.send(new DescribeUserPoolCommand({ UserPoolId: saved.data.userPoolId }));
          const existing = await client.send(
            new DescribeUserPoolClientCommand({
              UserPoolId: saved.data.userPoolId,
              ClientId: saved.data.userPoolClientId,
            }),
          );
          if (existing.UserPoolClient?.AccessTokenValidity !== lifetime) {
            await client.send(
              new UpdateUserPoolClientCommand({
                UserPoolId: saved.data.userPoolId,
                ClientId: saved.data.userPoolClientId,
                ExplicitAuthFlows: existing.UserPoolClient?.ExplicitAuthFlows,
                PreventUserExistenceErrors: existing.UserPoolClient?.PreventUserExistenceErrors,
                ...tokenValidity,
              }),
            );
          }
          return saved.data;
        } catch {
          // The saved pool is gone (its data was wiped): create a new one below.
        }
      }
    }
    const pool = await client.send(
      new CreateUserPoolCommand({
        PoolName: options.poolName,
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: 8,
            RequireLowercase: true,
            RequireUppercase: true,
            RequireNumbers: true,
            RequireSymbols: false,
          },
        },
      }),
    );
    const userPoolId = pool.UserPool?.Id;
    if (!userPoolId) throw new Error('cognito-local returned no user pool id');
    const appClient = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'web',
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        ...tokenValidity,
        PreventUserExistenceErrors: 'ENABLED',
      }),
    );
    const userPoolClientId = appClient.UserPoolClient?.ClientId;
    if (!userPoolClientId) throw new Error('cognito-local returned no app client id');
    const ids = { userPoolId, userPoolClientId };
    writeFileSync(options.stateFile, JSON.stringify(ids, null, 2));
    return ids;
  } finally {
    client.destroy();
  }
}
