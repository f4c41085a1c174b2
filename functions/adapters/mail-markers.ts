import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { MAIL_ATTEMPTS } from '../domain/mail-attempts';
import { documentClient } from './support/aws';
import { PROFILE_SK, purchaseSk, userPk } from './support/keys';

/**
 * The markers that make the welcome and receipt e-mails go out once (issue 35): `welcomeMailedAt` on the user item
 * (`USER#<sub>` / `PROFILE`) and `receiptMailedAt` on the purchase item (`USER#<sub>` / `PURCHASE#<sessionId>`),
 * each set by a conditional UpdateItem before the e-mail is sent, so a retried Cognito trigger or a replayed Stripe
 * webhook finds it set and sends nothing. A send that fails gives its marker back and counts the failure
 * (`…MailFailures`, with the last error's name in `…MailError`), so a later call tries again, at most
 * {@link MAIL_ATTEMPTS} times in all.
 */

/** The e-mail a marker belongs to. */
export type MarkedMail = 'welcome' | 'receipt';

const ITEMS = {
  welcome: {
    sk: () => PROFILE_SK,
    marker: 'welcomeMailedAt',
    failures: 'welcomeMailFailures',
    error: 'welcomeMailError',
  },
  receipt: {
    sk: (checkoutSessionId: string) => purchaseSk(checkoutSessionId),
    marker: 'receiptMailedAt',
    failures: 'receiptMailFailures',
    error: 'receiptMailError',
  },
} as const;

/**
 * One conditional UpdateItem on `mail`'s item of `sub` (the purchase of `ref` for a receipt).
 *
 * @returns false when the condition failed
 * @throws the DynamoDB error of anything but the condition
 */
async function updateMarker(
  mail: MarkedMail,
  sub: string,
  ref: string,
  update: { expression: string; condition: string; values: Record<string, unknown> },
): Promise<boolean> {
  const item = ITEMS[mail];
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(sub), SK: item.sk(ref) },
        UpdateExpression: update.expression,
        ConditionExpression: update.condition,
        // DynamoDB refuses a name the expressions do not use (ValidationException): only the used ones.
        ExpressionAttributeNames: Object.fromEntries(
          Object.entries({ '#marker': item.marker, '#failures': item.failures, '#error': item.error }).filter(
            ([name]) => `${update.expression} ${update.condition}`.includes(name),
          ),
        ),
        ExpressionAttributeValues: update.values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/**
 * Claims the right to send `mail`: sets its marker when the item exists, the marker is not set and fewer than
 * {@link MAIL_ATTEMPTS} sends failed.
 *
 * @param ref the Checkout Session id of a receipt (ignored for the welcome)
 * @returns true for the one caller that may send; false when sent (or being sent), given up, or no such item
 * @throws the DynamoDB error of anything but the condition
 */
export function claimMail(mail: MarkedMail, sub: string, ref = '', now = new Date()): Promise<boolean> {
  return updateMarker(mail, sub, ref, {
    expression: 'SET #marker = :now',
    condition:
      'attribute_exists(SK) AND attribute_not_exists(#marker) AND (attribute_not_exists(#failures) OR #failures < :attempts)',
    values: { ':now': now.toISOString(), ':attempts': MAIL_ATTEMPTS },
  });
}

/**
 * Gives back the marker of a send that failed and records the failure: one more in `…MailFailures`, the error's name
 * (SES's code, never its message, which may hold the address) in `…MailError`. Nothing when the item is gone.
 *
 * @throws the DynamoDB error of anything but the condition
 */
export async function releaseMail(
  mail: MarkedMail,
  sub: string,
  ref: string,
  errorName: string,
): Promise<void> {
  await updateMarker(mail, sub, ref, {
    expression: 'REMOVE #marker SET #failures = if_not_exists(#failures, :zero) + :one, #error = :error',
    condition: 'attribute_exists(SK)',
    values: { ':zero': 0, ':one': 1, ':error': errorName },
  });
}
