import { join } from 'node:path';
import { validateQueues, type QueueDefinition } from '../../../functions/queue-catalogue';
import type { LocalFunction } from '../stand-ins/lambda/runtime';
import { S3RVER_CREDENTIALS } from '../stand-ins/s3/s3rver';
import { startLocalMail } from '../stand-ins/ses/local-mail';
import { startSqs, type LocalSqs } from '../stand-ins/sqs/fauxqs';
import { startLocalPayments } from '../stand-ins/stripe/local-payments';
import { HOST } from '../support/ports';
import type { LocalPorts } from '../support/settings';
import type { DataDir, PartLogs, Teardown } from './lifecycle';

/** The stand-ins of the services the handlers call besides the data emulators, running. */
export interface StandIns {
  /**
   * What the handlers need of them: the payments' (`STRIPE_*`, when the local Checkout provider runs), the mail's
   * (`AWS_ENDPOINT_URL_SESV2`, `MAIL_FROM`, `MAIL_CONFIGURATION_SET`) and every queue's `<NAME>_QUEUE_URL`.
   */
  env: Record<string, string>;
  /** The local mail catcher's web inbox, unless MAIL_SMTP_URL sends the mail elsewhere. */
  inboxUrl: string | undefined;
  /** The SQS emulator with the queues created (`AWS_ENDPOINT_URL_SQS` is its endpoint). */
  sqs: LocalSqs;
}

/**
 * Starts the stand-ins for Stripe, SES and SQS:
 * - payments: the local Checkout provider, unless `STRIPE_SECRET_KEY` is configured; its signed webhooks go to the
 *   gateway at `gatewayUrl` (stand-ins/stripe/local-payments.ts);
 * - mail: the SES v2 stand-in relaying to the local mail catcher (stand-ins/ses/local-mail.ts);
 * - queues: fauxqs with each queue of `queues` and its dead-letter queue (functions/queue-catalogue.ts).
 *
 * @param functions the served functions: each queue's consumer must be one, with a timeout its visibility covers
 * @throws {Error} when the queues do not fit the functions (`validateQueues`) or SES_SANDBOX is not true/false.
 */
export async function startStandIns(
  options: {
    configuredEnv: Record<string, string | undefined> | undefined;
    ports: Pick<LocalPorts, 'checkout' | 'ses' | 'mailSmtp' | 'mailWeb' | 'sqs'>;
    dataDir: DataDir;
    region: string;
    gatewayUrl: string;
    functions: readonly LocalFunction[];
    queues: readonly QueueDefinition[];
    logs: PartLogs;
  },
  teardown: Teardown,
): Promise<StandIns> {
  const { ports, region, logs } = options;
  const payments = await startLocalPayments({
    configuredEnv: options.configuredEnv,
    port: ports.checkout,
    dataDir: join(options.dataDir.path, 'checkout'),
    gatewayUrl: options.gatewayUrl,
    log: logs('checkout'),
  });
  if (payments) teardown.add(payments.stop);

  const mail = await startLocalMail({
    configuredEnv: options.configuredEnv,
    sesPort: ports.ses,
    smtpPort: ports.mailSmtp,
    webPort: ports.mailWeb,
    region,
    log: logs('mail'),
  });
  teardown.add(mail.stop);

  validateQueues(
    options.queues,
    new Map(options.functions.map((f) => [f.name, { timeoutSeconds: f.timeoutSeconds ?? 3 }])),
  );
  const sqs = await startSqs({
    port: ports.sqs ?? 0,
    host: HOST,
    region,
    queues: options.queues,
    credentials: S3RVER_CREDENTIALS,
    log: logs('sqs'),
  });
  teardown.add(sqs.stop);

  return { env: { ...payments?.env, ...mail.env, ...sqs.env }, inboxUrl: mail.inboxUrl, sqs };
}
