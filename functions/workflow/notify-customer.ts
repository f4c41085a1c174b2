import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/support/aws';
import { getGeneration } from '../adapters/generations';
import { generationSk, userPk } from '../adapters/support/keys';
import { getUser } from '../adapters/ledger';
import { isMailRefused, loggableMailError, mailTransport, sendMail } from '../adapters/mailer';
import { countMetric } from '../common/metrics';
import { siteSettings } from '../config/site';
import { storageSettings } from '../config/storage';
import { isTerminal } from '../domain/generation-status';
import { readyMail } from '../domain/ready-mail';
import { logger } from '../common/logger';
import { generationRef } from './inputs/generation-ref';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/** Why no e-mail went out. */
type Skipped = 'not-configured' | 'opted-out' | 'not-finished' | 'regeneration' | 'already-sent' | 'failed';

/**
 * Workflow task NotifyCustomer (function `generation-notify-customer`), the last step of every path that ends a
 * generation (succeeded, partial, failed): e-mails the customer that their headshots are ready, or what was
 * refunded (domain/ready-mail.ts), unless they turned "E-mail me when my headshots are ready" off. At most once per
 * generation (`notifiedAt` is claimed before sending), and never for "Regenerate (1 credit)": the customer asked
 * for that one headshot on a screen that shows it, and a mail per regenerate would repeat the generation's own
 * (issue 27: one ready e-mail per generation). It never throws: a mail failure is logged, the generation
 * stays as it is. An SES refusal that comes from the account's setup (`MessageRejected`: the sender is not a verified
 * identity, or the customer is not verified while SES is in the sandbox) also counts `MailRefused`, which alarms.
 *
 * Input `{ generationId, userId }` → output `{ sent: boolean, skipped?: reason }`.
 */
async function notifyCustomer(event: unknown): Promise<{ sent: boolean; skipped?: Skipped }> {
  const { generationId, userId } = generationRef.parse(event);
  try {
    if (mailTransport() === 'none') return { sent: false, skipped: 'not-configured' };
    const [generation, user] = await Promise.all([getGeneration(userId, generationId), getUser(userId)]);
    if (!generation || !user || !isTerminal(generation.status))
      return { sent: false, skipped: 'not-finished' };
    if (generation.regeneratedFrom !== undefined) return { sent: false, skipped: 'regeneration' };
    if (!user.emailWhenReady) return { sent: false, skipped: 'opted-out' };
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: storageSettings().TABLE_NAME,
          Key: { PK: userPk(userId), SK: generationSk(generationId) },
          UpdateExpression: 'SET notifiedAt = :now',
          ConditionExpression: 'attribute_exists(SK) AND attribute_not_exists(notifiedAt)',
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        }),
      );
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException')
        return { sent: false, skipped: 'already-sent' };
      throw error;
    }
    const content = readyMail({
      status: generation.status as 'succeeded' | 'partial' | 'failed',
      delivered: Object.keys(generation.slots).length,
      refunded: generation.creditsRefunded,
      displayName: user.displayName || user.email,
      dashboardUrl: new URL('/dashboard', siteSettings().SITE_ORIGIN).toString(),
      likenessStopped: generation.likenessStop !== undefined,
    });
    const messageId = await sendMail(user.email, content);
    logger.info('Ready e-mail sent', { status: generation.status, messageId });
    return { sent: true };
  } catch (error) {
    const refused = isMailRefused(error);
    if (refused) countMetric('MailRefused');
    logger.error('Ready e-mail not sent', { error: loggableMailError(error), refusedBySes: refused });
    return { sent: false, skipped: 'failed' };
  }
}

export const handler = withLambdaContext(notifyCustomer, workflowKeys);
