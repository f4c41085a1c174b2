import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { grantCredits } from '../../functions/adapters/ledger';
import { claimMail, releaseMail } from '../../functions/adapters/mail-markers';
import { purchaseItem } from '../../functions/adapters/purchases';
import { documentClient } from '../../functions/adapters/support/aws';
import { PROFILE_SK, purchaseSk, userPk } from '../../functions/adapters/support/keys';
import { ensureUser } from '../../functions/adapters/user-creation';
import { storageSettings } from '../../functions/config/storage';
import { MAIL_ATTEMPTS } from '../../functions/domain/mail-attempts';

/*
 * The welcome and receipt e-mails' markers (functions/adapters/mail-markers.ts) on DynamoDB Local: one claim wins
 * among concurrent ones, a claimed marker stays claimed, a release counts the failure and lets the next claim
 * through until MAIL_ATTEMPTS failures, and no claim is made on an item that does not exist.
 */

const item = async (sk: string, sub: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: storageSettings().TABLE_NAME, Key: { PK: userPk(sub), SK: sk } }),
    )
  ).Item;

describe('e-mail markers on DynamoDB Local', () => {
  it('lets exactly one of 10 concurrent welcome claims through, and none again', async () => {
    const sub = randomUUID();
    await ensureUser(sub, `welcome-${sub}@example.com`);
    const claims = await Promise.all(Array.from({ length: 10 }, () => claimMail('welcome', sub)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimMail('welcome', sub)).toBe(false);
    expect((await item(PROFILE_SK, sub))?.welcomeMailedAt).toEqual(expect.any(String));
  });

  it('claims nothing for a user or a purchase that does not exist', async () => {
    const sub = randomUUID();
    expect(await claimMail('welcome', sub)).toBe(false);
    expect(await claimMail('receipt', sub, 'cs_test_none')).toBe(false);
    await releaseMail('receipt', sub, 'cs_test_none', 'MessageRejected');
    expect(await item(purchaseSk('cs_test_none'), sub)).toBeUndefined();
  });

  it('records each failed receipt on the purchase and gives up after MAIL_ATTEMPTS', async () => {
    const sub = randomUUID();
    const session = `cs_test_${sub}`;
    await ensureUser(sub, `buyer-${sub}@example.com`);
    const purchase = purchaseItem(sub, {
      checkoutSessionId: session,
      packId: 'starter',
      credits: 40,
      amountTotal: 3500,
      currency: 'usd',
      paymentIntentId: undefined,
      receiptUrl: null,
    });
    await grantCredits({ sub, amount: 40, ref: session, related: { item: purchase } });

    for (let attempt = 1; attempt <= MAIL_ATTEMPTS; attempt++) {
      expect(await claimMail('receipt', sub, session), `attempt ${attempt}`).toBe(true);
      await releaseMail('receipt', sub, session, 'TooManyRequestsException');
    }
    expect(await claimMail('receipt', sub, session)).toBe(false);
    const stored = await item(purchaseSk(session), sub);
    expect(stored).toMatchObject({
      receiptMailFailures: MAIL_ATTEMPTS,
      receiptMailError: 'TooManyRequestsException',
      credits: 40,
    });
    expect(stored?.receiptMailedAt).toBeUndefined();
  });
});
