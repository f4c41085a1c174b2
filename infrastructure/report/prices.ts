/**
 * The AWS list prices docs/costs.md is computed from (`npm run docs:costs`): us-east-1, on-demand, before free tiers,
 * in US dollars. Each has its source page and the day it was read.
 *
 * None could be re-read for this table: AWS's pricing pages cannot be reached from the machines it was written on.
 * The figures are the ones docs/costs.md cited when it was still typed by hand (read 2026-11-26); that document said
 * which it had checked and how, which {@link Price.checked} keeps. Change a figure here, with its source and date,
 * and run `npm run docs:costs`.
 */

/** How a price was confirmed on the day it was read. */
export type PriceCheck =
  'stored copy of the AWS page' | 'third-party copy of the price list' | 'AWS list price, not re-checked';

/** One price. */
export interface Price {
  /** US dollars per {@link unit}. */
  usd: number;
  /** What one unit is, as the price list says it: `GB-second`, `million requests`, `alarm metric-month`. */
  unit: string;
  /** The AWS pricing page. */
  source: string;
  /** The day the figure was read (ISO date). */
  read: string;
  checked: PriceCheck;
}

const READ = '2026-11-26';
const page = (path: string) => `https://aws.amazon.com/${path}/pricing/`;
const price = (usd: number, unit: string, path: string, checked: PriceCheck): Price => ({
  usd,
  unit,
  source: page(path),
  read: READ,
  checked,
});
const AWS_COPY: PriceCheck = 'stored copy of the AWS page';
const THIRD_PARTY: PriceCheck = 'third-party copy of the price list';
const LIST: PriceCheck = 'AWS list price, not re-checked';

/** Every price the cost model uses, by service. */
export const PRICES = {
  waf: {
    webAcl: price(5, 'web ACL-month', 'waf', THIRD_PARTY),
    rule: price(1, 'rule-month (a managed rule group is one rule)', 'waf', THIRD_PARTY),
    requests: price(0.6, 'million requests', 'waf', THIRD_PARTY),
  },
  lambda: {
    compute: price(0.0000133334, 'GB-second (arm64)', 'lambda', THIRD_PARTY),
    requests: price(0.2, 'million requests', 'lambda', THIRD_PARTY),
  },
  stepFunctions: {
    transitions: price(0.025, 'thousand state transitions (Standard)', 'step-functions', AWS_COPY),
  },
  dynamodb: {
    writes: price(0.625, 'million write request units (on-demand)', 'dynamodb', THIRD_PARTY),
    reads: price(0.125, 'million read request units (on-demand)', 'dynamodb', THIRD_PARTY),
  },
  s3: {
    storage: price(0.023, 'GB-month (Standard)', 's3', LIST),
    puts: price(0.005, 'thousand PUT, POST or LIST requests', 's3', LIST),
    gets: price(0.0004, 'thousand GET requests', 's3', LIST),
  },
  secretsManager: {
    secret: price(0.4, 'secret-month', 'secrets-manager', THIRD_PARTY),
    calls: price(0.05, 'ten thousand API calls', 'secrets-manager', THIRD_PARTY),
  },
  cloudwatch: {
    alarmMetric: price(
      0.1,
      'alarm metric-month (a metric-math alarm counts each metric it reads)',
      'cloudwatch',
      THIRD_PARTY,
    ),
    dashboard: price(3, 'dashboard-month', 'cloudwatch', THIRD_PARTY),
    customMetric: price(0.3, 'custom metric-month', 'cloudwatch', THIRD_PARTY),
    logsIngested: price(0.5, 'GB of logs ingested', 'cloudwatch', THIRD_PARTY),
  },
  apiGateway: { requests: price(1, 'million requests (HTTP API)', 'api-gateway', LIST) },
  cloudfront: { requests: price(0.01, 'ten thousand HTTPS requests', 'cloudfront', LIST) },
  xray: { traces: price(5, 'million traces recorded', 'xray', LIST) },
  ses: { emails: price(0.1, 'thousand e-mails', 'ses', LIST) },
  sqs: { requests: price(0.4, 'million requests (standard queue)', 'sqs', LIST) },
  scheduler: { invocations: price(1, 'million invocations (EventBridge Scheduler)', 'eventbridge', LIST) },
  firehose: {
    ingested: price(0.029, 'GB ingested (Direct PUT, each record rounded up to 5 KB)', 'firehose', LIST),
  },
  cognito: { plusUser: price(0.02, 'monthly active user (Plus: threat protection)', 'cognito', LIST) },
  kms: { key: price(1, 'customer-managed key-month', 'kms', LIST) },
} as const satisfies Record<string, Record<string, Price>>;

/** How the report names each service of {@link PRICES}. */
export const SERVICE_NAMES: Readonly<Record<keyof typeof PRICES, string>> = {
  waf: 'WAF',
  lambda: 'Lambda',
  stepFunctions: 'Step Functions',
  dynamodb: 'DynamoDB',
  s3: 'S3',
  secretsManager: 'Secrets Manager',
  cloudwatch: 'CloudWatch',
  apiGateway: 'API Gateway',
  cloudfront: 'CloudFront',
  xray: 'X-Ray',
  ses: 'SES',
  sqs: 'SQS',
  scheduler: 'EventBridge',
  firehose: 'Firehose',
  cognito: 'Cognito',
  kms: 'KMS',
};

/** An always-free allowance per account and month (the same pages), which a stage shares with the account's others. */
export interface FreeTier {
  /** What it covers, e.g. `Lambda compute`. */
  what: string;
  /** The allowance, in the price's unit. */
  amount: number;
  price: Price;
}

/** The always-free tiers that the month at 10,000 generations could use. */
export const FREE_TIERS: readonly FreeTier[] = [
  { what: 'Lambda compute (GB-seconds)', amount: 400_000, price: PRICES.lambda.compute },
  { what: 'Lambda requests (millions)', amount: 1, price: PRICES.lambda.requests },
  { what: 'Step Functions transitions (thousands)', amount: 4, price: PRICES.stepFunctions.transitions },
  { what: 'X-Ray traces (millions)', amount: 0.1, price: PRICES.xray.traces },
  { what: 'CloudFront requests (ten thousands)', amount: 1_000, price: PRICES.cloudfront.requests },
  {
    what: 'CloudWatch alarm metrics (of alarms on one metric)',
    amount: 10,
    price: PRICES.cloudwatch.alarmMetric,
  },
  { what: 'CloudWatch dashboards', amount: 3, price: PRICES.cloudwatch.dashboard },
  { what: 'CloudWatch custom metrics', amount: 10, price: PRICES.cloudwatch.customMetric },
];
