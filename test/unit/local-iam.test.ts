import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { HeadObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isMapped } from '../../infrastructure/local/iam/actions';
import type * as AwsClients from '../../functions/adapters/support/aws';
import type {
  IamCheck,
  IamDenial,
  runAsFunction as RunAsFunction,
} from '../../infrastructure/local/iam/caller';
import { REPO_ROOT } from '../../infrastructure/local/support/paths';
import type { SynthesizedRoles } from '../../infrastructure/local/iam/synthesized';

/*
 * The local IAM check on the SDK clients of functions/, with roles written as the stack synthesizes them
 * (CloudFormation intrinsics resolved to the local names). A denied call never leaves the process, so no emulator
 * is needed: the SDK's own deserializer turns the refusal into the error the handler gets. The clients, the check and
 * the invocation context are this file's own module instances (the unit files of a worker share one module graph),
 * made in `beforeAll` with this file's environment.
 */

const TABLE = { 'Fn::GetAtt': ['DataTable', 'Arn'] };
const UPLOADS = { 'Fn::GetAtt': ['UploadsBucket', 'Arn'] };
const allow = (Action: string[], Resource: unknown, Condition?: object) => ({
  Effect: 'Allow',
  Action,
  Resource,
  ...(Condition ? { Condition } : {}),
});
const policy = (...Statement: object[]) => ({ Version: '2012-10-17', Statement });

const roles: SynthesizedRoles = {
  functions: {
    // As the catalogue's `table: ['write'], uploads: ['write', 'list']` synthesizes: no GetItem, no DeleteItem.
    'writes-only': {
      roleLogicalId: 'WritesOnlyRole',
      policies: [
        policy(
          allow(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'], TABLE),
          allow(['s3:PutObject'], { 'Fn::Join': ['', [UPLOADS, '/uploads/*']] }),
          allow(['s3:ListBucket'], UPLOADS, { StringLike: { 's3:prefix': ['uploads/*'] } }),
        ),
      ],
    },
    reads: {
      roleLogicalId: 'ReadsRole',
      policies: [
        policy(
          allow(['dynamodb:GetItem'], TABLE),
          allow(['s3:GetObject'], { 'Fn::Join': ['', [UPLOADS, '/*']] }),
        ),
      ],
    },
  },
  resourcePolicies: [
    {
      target: { Ref: 'UploadsBucket' },
      document: policy(
        // enforceSSL, as every bucket of the stack has it: never matches the code's HTTPS calls.
        {
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 's3:*',
          Resource: [UPLOADS, { 'Fn::Join': ['', [UPLOADS, '/*']] }],
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
        {
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 's3:GetObject',
          Resource: { 'Fn::Join': ['', [UPLOADS, '/private/*']] },
        },
      ),
    },
  ],
  references: {
    DataTable: { kind: 'table' },
    UploadsBucket: { kind: 'bucket', bucket: 'uploads' },
  },
};

const denials: { functionName: string; denial: IamDenial }[] = [];
let iam: IamCheck & { stats(): { requests: number; cached: number } };
let aws: typeof AwsClients;
let runAsFunction: typeof RunAsFunction;
const as = <T>(functionName: string, work: () => Promise<T>) => runAsFunction({ functionName, iam }, work);
const documentClient = () => aws.documentClient();
const s3Client = () => aws.s3Client();
const sfnClient = () => aws.sfnClient();
const sqsClient = () => aws.sqsClient();
const failure = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return error as Error & { $metadata?: { httpStatusCode?: number }; $fault?: string };
  }
  throw new Error('the call was not refused');
};

const ARN_TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/iam-test-table';
const ROLE = (role: string, fn: string) => `arn:aws:sts::000000000000:assumed-role/${role}/${fn}`;

beforeAll(async () => {
  for (const [name, value] of Object.entries({
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: 'iam-test-table',
    UPLOADS_BUCKET: 'iam-test-uploads',
    // Nothing listens here: an allowed call that left the process would fail with a connection error instead.
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
  }))
    vi.stubEnv(name, value);
  vi.resetModules();
  aws = await import('../../functions/adapters/support/aws');
  ({ runAsFunction } = await import('../../infrastructure/local/iam/caller'));
  const { localIamCheck } = await import('../../infrastructure/local/iam/local-check');
  iam = localIamCheck({ roles, onDenied: (functionName, denial) => denials.push({ functionName, denial }) });
});

afterAll(() => {
  vi.unstubAllEnvs();
});

describe('local IAM check', () => {
  it('refuses a GetItem the role does not allow with DynamoDB’s AccessDeniedException and AWS’s message', async () => {
    const error = await failure(
      as('writes-only', () =>
        documentClient().send(
          new GetCommand({ TableName: 'iam-test-table', Key: { PK: 'USER#1', SK: 'PROFILE' } }),
        ),
      ),
    );
    expect(error.name).toBe('AccessDeniedException');
    expect(error.$metadata?.httpStatusCode).toBe(400);
    expect(error.$fault).toBe('client');
    expect(error.message).toBe(
      `User: ${ROLE('WritesOnlyRole', 'writes-only')} is not authorized to perform: dynamodb:GetItem on resource: ` +
        `${ARN_TABLE} because no identity-based policy allows the dynamodb:GetItem action`,
    );
    expect(denials.at(-1)).toMatchObject({ functionName: 'writes-only', denial: { reason: 'implicit' } });
  });

  it('authorizes a transaction item by item: a Delete needs dynamodb:DeleteItem', async () => {
    const error = await failure(
      as('writes-only', () =>
        documentClient().send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: 'iam-test-table', Item: { PK: 'A', SK: 'B' } } },
              { Delete: { TableName: 'iam-test-table', Key: { PK: 'A', SK: 'C' } } },
            ],
          }),
        ),
      ),
    );
    expect(error.name).toBe('AccessDeniedException');
    expect(error.message).toContain('dynamodb:DeleteItem on resource');
  });

  it('decides allowed calls without refusing them, and caches each decision', async () => {
    const put = { action: 'dynamodb:PutItem', resource: ARN_TABLE };
    expect(await iam.check('writes-only', [put])).toBeUndefined();
    const before = iam.stats();
    expect(await iam.check('writes-only', [put])).toBeUndefined();
    expect(iam.stats()).toMatchObject({ requests: before.requests + 1, cached: before.cached + 1 });
    // The enforceSSL Deny of the bucket policy does not match: the code speaks HTTPS in the cloud.
    const list = {
      action: 's3:ListBucket',
      resource: 'arn:aws:s3:::iam-test-uploads',
      context: { 's3:prefix': 'uploads/u1/' },
    };
    expect(await iam.check('writes-only', [list])).toBeUndefined();
  });

  it('refuses S3 calls as S3 does: AccessDenied, 403, the resource in quotes; a HEAD without a body', async () => {
    const get = await failure(
      as('writes-only', () =>
        s3Client().send(new GetObjectCommand({ Bucket: 'iam-test-uploads', Key: 'uploads/u1/a.jpg' })),
      ),
    );
    expect(get.name).toBe('AccessDenied');
    expect(get.$metadata?.httpStatusCode).toBe(403);
    expect(get.message).toBe(
      `User: ${ROLE('WritesOnlyRole', 'writes-only')} is not authorized to perform: s3:GetObject on resource: ` +
        '"arn:aws:s3:::iam-test-uploads/uploads/u1/a.jpg" because no identity-based policy allows the s3:GetObject action',
    );
    const head = await failure(
      as('writes-only', () =>
        s3Client().send(new HeadObjectCommand({ Bucket: 'iam-test-uploads', Key: 'uploads/u1/a.jpg' })),
      ),
    );
    // S3 answers a refused HEAD without a body, so the SDK cannot name the error (aws/aws-sdk-js-v3#6597).
    expect(head.$metadata?.httpStatusCode).toBe(403);
    const list = await failure(
      as('writes-only', () =>
        s3Client().send(new ListObjectsV2Command({ Bucket: 'iam-test-uploads', Prefix: 'results/' })),
      ),
    );
    expect(list.message).toContain('s3:ListBucket on resource: "arn:aws:s3:::iam-test-uploads"');
  });

  it('applies the bucket policy: its explicit Deny wins over the role’s Allow', async () => {
    const error = await failure(
      as('reads', () =>
        s3Client().send(new GetObjectCommand({ Bucket: 'iam-test-uploads', Key: 'private/x' })),
      ),
    );
    expect(error.name).toBe('AccessDenied');
    expect(error.message).toMatch(
      /s3:GetObject on resource: "arn:aws:s3:::iam-test-uploads\/private\/x" with an explicit deny in a resource-based policy$/,
    );
    expect(
      await iam.check('reads', [
        { action: 's3:GetObject', resource: 'arn:aws:s3:::iam-test-uploads/uploads/x' },
      ]),
    ).toBeUndefined();
  });

  it('refuses Step Functions and SQS calls with their services’ errors', async () => {
    const start = await failure(
      as('reads', () =>
        sfnClient().send(
          new StartExecutionCommand({
            stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:generation',
          }),
        ),
      ),
    );
    expect(start.name).toBe('AccessDeniedException');
    expect(start.message).toContain(
      'states:StartExecution on resource: arn:aws:states:us-east-1:000000000000:stateMachine:generation because',
    );
    const send = await failure(
      as('reads', () =>
        sqsClient().send(
          new SendMessageCommand({
            QueueUrl: 'http://127.0.0.1:9/000000000000/admission-wakeup',
            MessageBody: '{}',
          }),
        ),
      ),
    );
    // SQS's JSON protocol carries the query protocol's code, which the SDK names the error by.
    expect(send.name).toBe('AccessDenied');
    expect(send.$metadata?.httpStatusCode).toBe(403);
    expect(send.message).toContain(
      'sqs:sendmessage on resource: arn:aws:sqs:us-east-1:000000000000:admission-wakeup because no identity-based policy allows the sqs:sendmessage action',
    );
  });
});

/** The IAM service of each SDK package functions/ imports commands from. */
const SERVICE_OF_PACKAGE: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-sfn': 'states',
  '@aws-sdk/client-sqs': 'sqs',
  '@aws-sdk/client-cognito-identity-provider': 'cognito-idp',
  '@aws-sdk/client-sesv2': 'ses',
  '@aws-sdk/client-firehose': 'firehose',
};

/** The document client's commands are the table API's operations under shorter names. */
const DOCUMENT_OPERATIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactWrite: 'TransactWriteItems',
  TransactGet: 'TransactGetItems',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('local IAM check coverage', () => {
  it('knows the IAM requests of every SDK command functions/ imports', () => {
    const commands = new Set<string>();
    for (const file of sourceFiles(join(REPO_ROOT, 'functions'))) {
      const text = readFileSync(file, 'utf8');
      for (const [, names, pkg] of text.matchAll(/import\s+\{([^}]*)\}\s+from\s+'(@aws-sdk\/[^']+)'/g)) {
        for (const name of names!.split(',').map((n) => n.trim())) {
          const command = /^(\w+)Command$/.exec(name)?.[1];
          if (!command) continue;
          const operation =
            pkg === '@aws-sdk/lib-dynamodb' ? (DOCUMENT_OPERATIONS[command] ?? command) : command;
          commands.add(`${SERVICE_OF_PACKAGE[pkg!] ?? pkg}:${operation}`);
        }
      }
    }
    expect(commands.size).toBeGreaterThan(10);
    const unmapped = [...commands].filter((c) => !isMapped(...(c.split(':') as [string, string])));
    expect(unmapped).toEqual([]);
  });

  it('reaches every SDK client functions/ makes: each is made through awsClient', () => {
    let clients = 0;
    for (const file of sourceFiles(join(REPO_ROOT, 'functions'))) {
      const text = readFileSync(file, 'utf8');
      for (const [call] of text.matchAll(/new \w+Client\(/g)) {
        clients++;
        expect(text, `${file}: ${call}`).toMatch(new RegExp(`awsClient\\(\\s*${call.replace('(', '\\(')}`));
      }
    }
    // DynamoDB, S3, Step Functions, SQS, Cognito, SES, Firehose.
    expect(clients).toBe(7);
  });
});
