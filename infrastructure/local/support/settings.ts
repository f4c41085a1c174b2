import * as z from 'zod';

/** Names of the local resources; the cloud names come from CDK. */
export const LOCAL_NAMES = {
  table: 'headshot-studio',
  uploadsBucket: 'headshot-studio-uploads',
  resultsBucket: 'headshot-studio-results',
  userPool: 'headshot-studio-local',
} as const;

/** A TCP port variable: a whole number from 1 to 65535, `fallback` when unset. */
const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

/**
 * The ports of the local stack, each overridable by its variable (`PORT` moves the site). Defaults are the parts'
 * customary ports, so logs and docs read the same on every machine.
 */
export const portsSchema = z.object({
  PORT: port(5173),
  GATEWAY_PORT: port(3001),
  LAMBDA_PORT: port(3002),
  STEPFUNCTIONS_PORT: port(8083),
  DYNAMODB_PORT: port(8000),
  S3_PORT: port(4569),
  COGNITO_PORT: port(9229),
  /** The local Checkout provider (Stripe stand-in); only started when no STRIPE_SECRET_KEY is set. */
  CHECKOUT_PORT: port(4242),
  /** The local mail catcher's SMTP server (MailDev). */
  MAIL_SMTP_PORT: port(1025),
  /** The local mail catcher's web inbox. */
  MAIL_WEB_PORT: port(1080),
  /** The SES v2 API stand-in the handlers send mail through (it relays to the mail catcher). */
  SES_PORT: port(4575),
  /** The SQS emulator (fauxqs); 9324 is the customary local SQS port (ElasticMQ's), clear of LocalStack's 4566. */
  SQS_PORT: port(9324),
});

/** Port numbers by part; 0 asks the OS for a free port (tests). */
export interface LocalPorts {
  site: number;
  gateway: number;
  lambda: number;
  stepfunctions: number;
  dynamodb: number;
  s3: number;
  cognito: number;
  /** The local Checkout provider (payments without a Stripe key). */
  checkout: number;
  /** The mail catcher's SMTP and web inbox ports; absent = any free port. */
  mailSmtp?: number;
  mailWeb?: number;
  /** The SES v2 stand-in; absent = any free port. */
  ses?: number;
  /** The SQS emulator; absent = any free port. */
  sqs?: number;
}

/** The variable that moves each part: read by {@link portsFromEnv}, named by the "port taken" message. */
export const PORT_VARIABLES = {
  site: 'PORT',
  gateway: 'GATEWAY_PORT',
  lambda: 'LAMBDA_PORT',
  stepfunctions: 'STEPFUNCTIONS_PORT',
  dynamodb: 'DYNAMODB_PORT',
  s3: 'S3_PORT',
  cognito: 'COGNITO_PORT',
  checkout: 'CHECKOUT_PORT',
  mailSmtp: 'MAIL_SMTP_PORT',
  mailWeb: 'MAIL_WEB_PORT',
  ses: 'SES_PORT',
  sqs: 'SQS_PORT',
} as const satisfies Record<keyof LocalPorts, keyof z.infer<typeof portsSchema>>;

/** The ports `npm start` uses, from the environment ({@link portsSchema}, each part by its {@link PORT_VARIABLES}). */
export function portsFromEnv(env: Record<string, string | undefined>): LocalPorts {
  const parsed = portsSchema.parse(env);
  const ports = {} as Record<keyof LocalPorts, number>;
  for (const part of Object.keys(PORT_VARIABLES) as (keyof LocalPorts)[])
    ports[part] = parsed[PORT_VARIABLES[part]];
  return ports;
}
