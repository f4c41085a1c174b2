import * as z from 'zod';

/** Names of the local resources; the cloud names come from CDK. */
export const LOCAL_NAMES = {
  table: 'headshot-studio',
  uploadsBucket: 'headshot-studio-uploads',
  resultsBucket: 'headshot-studio-results',
  userPool: 'headshot-studio-local',
} as const;

/**
 * The ports of the local stack, each overridable by its variable (`PORT` moves the site). Defaults are the parts'
 * customary ports, so logs and docs read the same on every machine.
 */
export const portsSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(5173),
  GATEWAY_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
  LAMBDA_PORT: z.coerce.number().int().min(1).max(65535).default(3002),
  STEPFUNCTIONS_PORT: z.coerce.number().int().min(1).max(65535).default(8083),
  DYNAMODB_PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  S3_PORT: z.coerce.number().int().min(1).max(65535).default(4569),
  COGNITO_PORT: z.coerce.number().int().min(1).max(65535).default(9229),
  /** The local Checkout provider (Stripe stand-in); only started when no STRIPE_SECRET_KEY is set. */
  CHECKOUT_PORT: z.coerce.number().int().min(1).max(65535).default(4242),
  /** The local mail catcher's SMTP server (MailDev). */
  MAIL_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
  /** The local mail catcher's web inbox. */
  MAIL_WEB_PORT: z.coerce.number().int().min(1).max(65535).default(1080),
  /** The SES v2 API stand-in the handlers send mail through (it relays to the mail catcher). */
  SES_PORT: z.coerce.number().int().min(1).max(65535).default(4575),
  /** The SQS emulator (fauxqs); 9324 is the customary local SQS port (ElasticMQ's), clear of LocalStack's 4566. */
  SQS_PORT: z.coerce.number().int().min(1).max(65535).default(9324),
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

/** The ports `npm start` uses, from the environment. */
export function portsFromEnv(env: Record<string, string | undefined>): LocalPorts {
  const p = portsSchema.parse(env);
  return {
    site: p.PORT,
    gateway: p.GATEWAY_PORT,
    lambda: p.LAMBDA_PORT,
    stepfunctions: p.STEPFUNCTIONS_PORT,
    dynamodb: p.DYNAMODB_PORT,
    s3: p.S3_PORT,
    cognito: p.COGNITO_PORT,
    checkout: p.CHECKOUT_PORT,
    mailSmtp: p.MAIL_SMTP_PORT,
    mailWeb: p.MAIL_WEB_PORT,
    ses: p.SES_PORT,
    sqs: p.SQS_PORT,
  };
}

/** The variable that moves each part, for the "port taken" message. */
export const PORT_VARIABLES: Record<keyof LocalPorts, string> = {
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
};
