import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import { beginAccountDeletion } from '../../functions/adapters/account-deletion';
import { documentClient } from '../../functions/adapters/support/aws';
import { retrieveCheckoutSession } from '../../functions/adapters/stripe/checkout-sessions';
import { getUser, grantCredits, listLedger } from '../../functions/adapters/ledger';
import { findPaymentIntent, getPurchase, paymentIntentLookupPut } from '../../functions/adapters/purchases';
import { headObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import { handleReversalEvent } from '../../functions/webhooks/reversal-events';
import { headshotImageKey } from '../../functions/domain/object-keys';
import { seedGeneration } from '../adversarial/seed';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';
import { seedHeadshots } from '../helpers/gallery';
import { spendOnGeneration } from '../helpers/generation-items';

/*
 * "Delete my account" (DELETE /api/me) on the shared local stack: cognito-local, DynamoDB Local, s3rver. The account
 * goes — Cognito user, photos, headshots, generations, e-mail — while its purchases and ledger stay, balanced, under
 * a pseudonymous id that refunds and disputes still reach; a generation started while it runs is refused.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

const partition = async (sub: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: storageSettings().TABLE_NAME,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${sub}` },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

async function cognitoUserExists(user: TestUser): Promise<boolean> {
  const client = new CognitoIdentityProviderClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    endpoint: process.env.COGNITO_ENDPOINT,
  });
  try {
    await client.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: user.email }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'UserNotFoundException') return false;
    throw error;
  } finally {
    client.destroy();
  }
}

/** A user with 2 uploaded photos, a finished generation (3 headshots) and a 20-credit purchase. */
async function customer() {
  const user = await createTestUser(pool);
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  const uploads = await uploadPhotos(gatewayUrl, user.idToken, [
    fixturePhoto('obama.jpg'),
    fixturePhoto('obama2.jpg'),
  ]);
  const { generation } = await seedGeneration(user.sub, [0, 1, 2]);
  const checkoutSessionId = `cs_test_${ulid()}`;
  const paymentIntentId = `pi_${ulid()}`;
  const purchase = {
    PK: `USER#${user.sub}`,
    SK: `PURCHASE#${checkoutSessionId}`,
    type: 'purchase',
    checkoutSessionId,
    packId: 'starter',
    credits: 20,
    amountTotal: 999,
    currency: 'usd',
    paymentIntentId,
    status: 'completed',
    creditsReversed: 0,
    createdAt: new Date().toISOString(),
  };
  // What fulfilment commits: the credits, the purchase and the payment intent's lookup, in one transaction.
  const lookup = paymentIntentLookupPut(paymentIntentId, user.sub, checkoutSessionId);
  await grantCredits({
    sub: user.sub,
    amount: 20,
    ref: checkoutSessionId,
    related: { item: purchase },
    extraItems: [lookup],
  });
  return { user, uploads, generation, checkoutSessionId, paymentIntentId };
}

describe('DELETE /api/me', () => {
  it('refuses generations, uploads and purchases during and after the deletion, then removes the Cognito user, objects and items and keeps a pseudonymous, balanced ledger', async () => {
    const { user, uploads, generation, checkoutSessionId, paymentIntentId } = await customer();
    const ledgerBefore = await listLedger(user.sub);
    // 6 free, 6 spent on the generation, 3 undelivered slots refunded, 20 bought.
    const balance = 23;
    expect((await getUser(user.sub))?.credits).toBe(balance);

    // A Checkout Session still open when the account goes: nobody can pay it any more.
    const checkout = await api(gatewayUrl, user.idToken, 'POST', '/api/checkout/sessions', {
      packId: 'starter',
    });
    const { id: openSessionId } = (await checkout.json()) as { id: string };
    expect((await retrieveCheckoutSession(openSessionId)).status).toBe('open');

    // The deletion's first step has run (deletingAt set): a generation asked for now is refused by its spend
    // transaction, and nothing is spent or created.
    await beginAccountDeletion(user.sub);
    const started = await api(gatewayUrl, user.idToken, 'POST', '/api/generations', {
      style: 'professional',
      background: 'studio',
      referenceKeys: uploads,
    });
    expect(started.status).toBe(409);
    expect(((await started.json()) as { error: { code: string } }).error.code).toBe('ACCOUNT_DELETING');
    expect((await getUser(user.sub))?.credits).toBe(balance);
    expect((await partition(user.sub)).filter((i) => String(i.SK).startsWith('GENERATION#'))).toHaveLength(1);
    // Nor can the costly routes be used meanwhile: no new upload is presigned, no Checkout Session opened.
    const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
    const presign = () =>
      api(gatewayUrl, user.idToken, 'POST', '/api/uploads', {
        files: [{ contentType: 'image/jpeg', size: 1000 }],
      });
    const buy = () => api(gatewayUrl, user.idToken, 'POST', '/api/checkout/sessions', { packId: 'starter' });
    for (const res of [await presign(), await buy()]) {
      expect(res.status).toBe(409);
      expect(await errorCode(res)).toBe('ACCOUNT_DELETING');
    }

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await retrieveCheckoutSession(openSessionId)).status).toBe('expired');

    // The Cognito user, every object and every item are gone; the user item is a tombstone without e-mail.
    expect(await cognitoUserExists(user)).toBe(false);
    for (const key of uploads) expect(await headObject('uploads', key)).toBeUndefined();
    expect(await headObject('results', headshotImageKey(user.sub, generation.id, 0))).toBeUndefined();
    const left = await partition(user.sub);
    expect(left.map((i) => i.SK)).toEqual(['PROFILE']);
    expect(left[0]).not.toHaveProperty('email');
    expect(left[0]).not.toHaveProperty('displayName');
    expect(left[0]).not.toHaveProperty('pseudonymId');
    expect(left[0]).toMatchObject({ credits: 0, deletedAt: expect.any(String) });
    await expectLedgerBalanced(user.sub);

    // The books: under a pseudonymous id, balanced, with the purchase its payment intent still leads to.
    const lookup = await findPaymentIntent(paymentIntentId);
    const pseudonym = lookup!.sub;
    expect(pseudonym).toMatch(/^anon-[0-9a-z]+$/);
    expect(await getPurchase(pseudonym, checkoutSessionId)).toMatchObject({ credits: 20, paymentIntentId });
    const ledgerAfter = await listLedger(pseudonym);
    expect(ledgerAfter.map((e) => [e.reason, e.delta, e.ref]).sort()).toEqual(
      ledgerBefore.map((e) => [e.reason, e.delta, e.ref]).sort(),
    );
    expect(await getUser(pseudonym)).toMatchObject({ credits: balance, email: '' });
    await expectLedgerBalanced(pseudonym);
    expect(JSON.stringify(await partition(pseudonym))).not.toContain(user.email);

    // A dispute of the old payment still finds its purchase and takes its credits back from the books.
    const dispute = { id: `evt_${ulid()}`, type: 'charge.dispute.created' as const };
    expect(
      await handleReversalEvent({ ...dispute, data: { object: { payment_intent: paymentIntentId } } }),
    ).toMatchObject({ creditsReversed: 20 });
    expect((await getUser(pseudonym))?.credits).toBe(balance - 20);
    await expectLedgerBalanced(pseudonym);

    // The old token finds a deleted account; deleting again is harmless.
    const me = await api(gatewayUrl, user.idToken, 'GET', '/api/me');
    expect(me.status).toBe(410);
    expect(((await me.json()) as { error: { code: string } }).error.code).toBe('ACCOUNT_DELETED');
    for (const res of [await presign(), await buy()]) {
      expect(res.status).toBe(410);
      expect(await errorCode(res)).toBe('ACCOUNT_DELETED');
    }
    // Opening the gallery with it writes nothing beside the tombstone (its stats item went with the headshots).
    const gallery = await api(gatewayUrl, user.idToken, 'GET', '/api/headshots');
    expect(gallery.status).toBe(410);
    expect(await errorCode(gallery)).toBe('ACCOUNT_DELETED');
    expect((await partition(user.sub)).map((i) => i.SK)).toEqual(['PROFILE']);
    expect((await api(gatewayUrl, user.idToken, 'DELETE', '/api/me')).status).toBe(204);

    // Signing up again with the same e-mail: a new account, without a second sign-up bonus.
    const again = await createTestUser({ ...pool, email: user.email });
    expect(again.sub).not.toBe(user.sub);
    const fresh = await api(gatewayUrl, again.idToken, 'GET', '/api/me');
    expect(await fresh.json()).toMatchObject({ credits: 0, signupBonus: 'already-claimed' });
  });

  it('refuses while a generation is running (409) and deletes nothing', async () => {
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const generationId = await spendOnGeneration(user.sub, { background: 'studio' });
    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error: { code: 'GENERATION_IN_PROGRESS', details: { generationId } },
    });
    const kept = await getUser(user.sub);
    expect(kept).toMatchObject({ email: user.email, credits: 0 });
    expect(kept?.deletingAt).toBeUndefined();
    expect(await cognitoUserExists(user)).toBe(true);
    await expectLedgerBalanced(user.sub);
  });
  it('refuses (409) under a live 35-minute run: the account, its headshots and their images all stay', async () => {
    // Created 35 minutes ago, its last call admitted just before the 30-minute deadline is still running: the
    // execution may run about 40 minutes (functions/domain/generation-deadline.ts), so nothing may be deleted yet.
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const generationId = await spendOnGeneration(user.sub, {
      createdAt: Date.now() - 35 * 60_000,
      status: 'running',
      background: 'studio',
    });
    const seeded = await seedHeadshots(user.sub, 4, { withImages: 4, generationId });
    const before = await partition(user.sub);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me');
    expect(res.status, await res.clone().text()).toBe(409);
    expect(await res.json()).toMatchObject({
      error: { code: 'GENERATION_IN_PROGRESS', details: { generationId } },
    });
    expect(await partition(user.sub)).toEqual(before);
    for (const headshot of seeded) {
      expect(await headObject('results', headshot.imageKey)).toBeDefined();
      expect(await headObject('results', headshot.thumbnailKey)).toBeDefined();
    }
    expect(await cognitoUserExists(user)).toBe(true);
    await expectLedgerBalanced(user.sub);
  });
});
