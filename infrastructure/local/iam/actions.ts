/*
 * The IAM requests an AWS SDK call makes: which actions on which resources AWS authorizes before it serves the call
 * (the Service Authorization Reference, https://docs.aws.amazon.com/service-authorization/latest/reference/, per
 * service). Some calls are several requests: a DynamoDB transaction is authorized item by item with each item's own
 * action (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html), a
 * DeleteObjects key by key with s3:DeleteObject, a ListObjectsV2 is s3:ListBucket on the bucket with the prefix as
 * the `s3:prefix` condition key.
 */

/** One action on one resource, with the condition keys the request carries beside the global ones. */
export interface IamRequest {
  /** `dynamodb:GetItem`. */
  action: string;
  /** The resource's ARN (`arn:aws:dynamodb:us-east-1:000000000000:table/headshot-studio`). */
  resource: string;
  /** Service condition keys of this request (`s3:prefix`, `ses:FromAddress`). */
  context?: Readonly<Record<string, string>>;
}

/** Where the call is made: the ARNs' region and account, and what a call names only indirectly. */
export interface CallSite {
  region: string;
  accountId: string;
  /**
   * The state machine whose Tasks wait on task tokens: SendTask* are authorized against the state machine that issued
   * the token, and the local tokens carry no data (stand-ins/step-functions/task-tokens.ts); one machine has them.
   */
  stateMachineArn?: string;
}

/** A call this module cannot map: a new SDK command in functions/ needs its IAM requests here. */
export class UnmappedCallError extends Error {
  override readonly name = 'UnmappedCallError';
}

type Input = Record<string, unknown>;
type Mapper = (input: Input, at: CallSite) => IamRequest[];

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): Input[] => (Array.isArray(value) ? (value as Input[]) : []);

function tableArn(at: CallSite, table: unknown, index?: unknown): string {
  const base = `arn:aws:dynamodb:${at.region}:${at.accountId}:table/${str(table)}`;
  return index ? `${base}/index/${str(index)}` : base;
}

/** DynamoDB operations authorized by their own name on the table (or the queried index). */
const onTable =
  (operation: string): Mapper =>
  (input, at) => [
    { action: `dynamodb:${operation}`, resource: tableArn(at, input.TableName, input.IndexName) },
  ];

/** The item action of each kind of transaction entry. */
const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
};

const transaction: Mapper = (input, at) =>
  list(input.TransactItems).flatMap((item) =>
    Object.entries(item).map(([kind, entry]) => ({
      action: TRANSACT_ACTIONS[kind] ?? `dynamodb:${kind}`,
      resource: tableArn(at, (entry as Input).TableName),
    })),
  );

/** BatchGetItem and BatchWriteItem: their own action on every table they name. */
const batch =
  (operation: string): Mapper =>
  (input, at) =>
    Object.keys((input.RequestItems as Input | undefined) ?? {}).map((table) => ({
      action: `dynamodb:${operation}`,
      resource: tableArn(at, table),
    }));

const objectArn = (bucket: unknown, key: unknown) => `arn:aws:s3:::${str(bucket)}/${str(key)}`;
const onObject =
  (action: string): Mapper =>
  (input) => [{ action, resource: objectArn(input.Bucket, input.Key) }];

const listBucket: Mapper = (input) => {
  const context: Record<string, string> = {};
  if (input.Prefix !== undefined) context['s3:prefix'] = str(input.Prefix);
  if (input.Delimiter !== undefined) context['s3:delimiter'] = str(input.Delimiter);
  if (input.MaxKeys !== undefined) context['s3:max-keys'] = String(input.MaxKeys as number);
  return [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${str(input.Bucket)}`, context }];
};

/** `http://host/<account>/<name>` (or the SQS endpoint's form of it) → the queue's ARN. */
function queueArn(at: CallSite, url: unknown): string {
  const [account, name] = new URL(str(url)).pathname.split('/').filter(Boolean);
  return `arn:aws:sqs:${at.region}:${account ?? at.accountId}:${name ?? ''}`;
}
const onQueue =
  (action: string): Mapper =>
  (input, at) => [{ action, resource: queueArn(at, input.QueueUrl) }];

const onUserPool =
  (operation: string): Mapper =>
  (input, at) => [
    {
      action: `cognito-idp:${operation}`,
      resource: `arn:aws:cognito-idp:${at.region}:${at.accountId}:userpool/${str(input.UserPoolId)}`,
    },
  ];

/** The address in `Name <address>` or a bare address, lower-cased as SES compares it. */
export function mailbox(from: string): string {
  return (/<([^>]+)>/.exec(from)?.[1] ?? from).trim().toLowerCase();
}

/**
 * SES v2 SendEmail: ses:SendEmail on the sending identity (the sender's domain, as the stack grants it:
 * infrastructure/constructs/settings.ts `defaultIdentity`) and on the configuration set, with `ses:FromAddress`.
 */
const sendEmail: Mapper = (input, at) => {
  const from = mailbox(str(input.FromEmailAddress));
  const context = { 'ses:FromAddress': from };
  const identity = from.slice(from.lastIndexOf('@') + 1);
  const arn = (resource: string) => `arn:aws:ses:${at.region}:${at.accountId}:${resource}`;
  return [
    { action: 'ses:SendEmail', resource: arn(`identity/${identity}`), context },
    ...(input.ConfigurationSetName
      ? [
          {
            action: 'ses:SendEmail',
            resource: arn(`configuration-set/${str(input.ConfigurationSetName)}`),
            context,
          },
        ]
      : []),
  ];
};

const onStream =
  (operation: string): Mapper =>
  (input, at) => [
    {
      action: `firehose:${operation}`,
      resource: `arn:aws:firehose:${at.region}:${at.accountId}:deliverystream/${str(input.DeliveryStreamName)}`,
    },
  ];

/** A task-token answer: authorized on the state machine whose Task issued the token (see {@link CallSite}). */
const onTaskToken =
  (operation: string): Mapper =>
  (_input, at) => [{ action: `states:${operation}`, resource: at.stateMachineArn ?? '*' }];

/** Every SDK call functions/ makes, by service and operation (the command's name without `Command`). */
const MAPPERS: Record<string, Record<string, Mapper>> = {
  dynamodb: {
    GetItem: onTable('GetItem'),
    PutItem: onTable('PutItem'),
    UpdateItem: onTable('UpdateItem'),
    DeleteItem: onTable('DeleteItem'),
    Query: onTable('Query'),
    Scan: onTable('Scan'),
    DescribeTable: onTable('DescribeTable'),
    BatchGetItem: batch('BatchGetItem'),
    BatchWriteItem: batch('BatchWriteItem'),
    TransactWriteItems: transaction,
    TransactGetItems: transaction,
  },
  s3: {
    GetObject: onObject('s3:GetObject'),
    // HEAD is authorized as GET (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html).
    HeadObject: onObject('s3:GetObject'),
    PutObject: onObject('s3:PutObject'),
    DeleteObject: onObject('s3:DeleteObject'),
    DeleteObjects: (input) =>
      list((input.Delete as Input | undefined)?.Objects).map((o) => ({
        action: 's3:DeleteObject',
        resource: objectArn(input.Bucket, o.Key),
      })),
    ListObjectsV2: listBucket,
    ListObjects: listBucket,
  },
  states: {
    StartExecution: (input) => [{ action: 'states:StartExecution', resource: str(input.stateMachineArn) }],
    DescribeExecution: (input) => [{ action: 'states:DescribeExecution', resource: str(input.executionArn) }],
    StopExecution: (input) => [{ action: 'states:StopExecution', resource: str(input.executionArn) }],
    SendTaskSuccess: onTaskToken('SendTaskSuccess'),
    SendTaskFailure: onTaskToken('SendTaskFailure'),
    SendTaskHeartbeat: onTaskToken('SendTaskHeartbeat'),
  },
  sqs: {
    SendMessage: onQueue('sqs:SendMessage'),
    // The batch form is authorized as the single one (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-api-permissions-reference.html).
    SendMessageBatch: onQueue('sqs:SendMessage'),
    ReceiveMessage: onQueue('sqs:ReceiveMessage'),
    DeleteMessage: onQueue('sqs:DeleteMessage'),
    DeleteMessageBatch: onQueue('sqs:DeleteMessage'),
    ChangeMessageVisibility: onQueue('sqs:ChangeMessageVisibility'),
    GetQueueAttributes: onQueue('sqs:GetQueueAttributes'),
  },
  'cognito-idp': Object.fromEntries(
    ['AdminDeleteUser', 'AdminGetUser', 'AdminUpdateUserAttributes', 'AdminUserGlobalSignOut'].map((op) => [
      op,
      onUserPool(op),
    ]),
  ),
  ses: { SendEmail: sendEmail },
  firehose: { PutRecord: onStream('PutRecord'), PutRecordBatch: onStream('PutRecordBatch') },
};

/** The IAM service prefix of each SDK client functions/ makes (adapters/support/aws.ts `awsClient`). */
export const SERVICE_OF_CLIENT: Readonly<Record<string, string>> = {
  DynamoDBClient: 'dynamodb',
  S3Client: 's3',
  SFNClient: 'states',
  SQSClient: 'sqs',
  CognitoIdentityProviderClient: 'cognito-idp',
  SESv2Client: 'ses',
  FirehoseClient: 'firehose',
};

/** Whether {@link iamRequests} knows `<service>:<operation>`. */
export function isMapped(service: string, operation: string): boolean {
  return MAPPERS[service]?.[operation] !== undefined;
}

/**
 * The IAM requests of one SDK call.
 *
 * @param service the IAM service prefix ({@link SERVICE_OF_CLIENT})
 * @param operation the API operation (`GetItem`; the command's name without `Command`)
 * @param input the command's input (for DynamoDB, marshalled or not: only table names are read)
 * @throws {UnmappedCallError} for an operation not listed here
 */
export function iamRequests(service: string, operation: string, input: Input, at: CallSite): IamRequest[] {
  const mapper = MAPPERS[service]?.[operation];
  if (!mapper) {
    throw new UnmappedCallError(
      `The local IAM check does not know ${service}:${operation}: add its IAM requests to infrastructure/local/iam/actions.ts`,
    );
  }
  return mapper(input, at);
}
