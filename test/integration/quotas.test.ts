import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { quotaSk, userPk } from '../../functions/adapters/support/keys';
import { getUser, grantCredits, listLedger } from '../../functions/adapters/ledger';
import { quotaWindow } from '../../functions/domain/quotas';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * Per-user quotas through the stack's gateway, on DynamoDB Local, with the default limits (100 photos presigned and
 * 10 Checkout Sessions per hour, one generation in flight): a refused request answers 429 with Retry-After and a
 * sentence for a person, and leaves nothing behind.
 */

const { gatewayUrl, runtimeConfig, env } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const file = { contentType: 'image/jpeg', size: 1_000 };

async function counter(sub: string, rule: string): Promise<number | undefined> {
  const { start } = quotaWindow({ windowSeconds: 3600 }, Date.now());
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: env.TABLE_NAME,
      Key: { PK: userPk(sub), SK: quotaSk(rule, start) },
      ConsistentRead: true,
    }),
  );
  return Item?.used as number | undefined;
}

async function expect429(res: Response, quota: string, wording: RegExp): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  const body = (await res.json()) as { error: { code: string; message: string; details: unknown } };
  expect(body.error.code).toBe('QUOTA_EXCEEDED');
  expect(body.error.message).toMatch(wording);
  expect(body.error.details).toMatchObject({ quota, retryAfterSeconds: retryAfter });
}

const uploadBatch = (user: TestUser, n: number) =>
  api(gatewayUrl, user.idToken, 'POST', '/api/uploads', { files: Array(n).fill(file) });

describe('per-user quotas', () => {
  it('presigns at most 100 photos an hour, all of a batch or none of it', async () => {
    const [user, other] = await Promise.all([createTestUser(pool), createTestUser(pool)]);
    // Concurrent batches cannot overshoot: the counter moves only under its condition.
    const first = await Promise.all(Array.from({ length: 9 }, () => uploadBatch(user, 10)));
    expect(first.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect((await uploadBatch(user, 5)).status).toBe(200);
    expect(await counter(user.sub, 'uploads')).toBe(95);

    await expect429(
      await uploadBatch(user, 10),
      'uploads',
      /limit of 100 photo uploads per hour.*try again in/,
    );
    expect(await counter(user.sub, 'uploads')).toBe(95);
    expect((await uploadBatch(user, 5)).status).toBe(200);
    await expect429(await uploadBatch(user, 1), 'uploads', /photo uploads/);
    expect(await counter(user.sub, 'uploads')).toBe(100);
    // Another user is not affected.
    expect((await uploadBatch(other, 10)).status).toBe(200);
  });

  it('creates at most 10 Checkout Sessions an hour', async () => {
    const user = await createTestUser(pool);
    const created = await Promise.all(
      Array.from({ length: 10 }, () =>
        api(gatewayUrl, user.idToken, 'POST', '/api/checkout/sessions', { packId: 'starter' }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(10).fill(200));
    await expect429(
      await api(gatewayUrl, user.idToken, 'POST', '/api/checkout/sessions', { packId: 'pro' }),
      'checkout-sessions',
      /limit of 10 checkout attempts per hour/,
    );
    expect(await counter(user.sub, 'checkout-sessions')).toBe(10);
  });

  it('keeps one generation in flight per user, decided inside the spend transaction', async () => {
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    await grantCredits({ sub: user.sub, amount: 6, ref: `quota-test-${user.sub}` });
    const [key] = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama.jpg')]);
    const body = { style: 'professional', background: 'studio', referenceKeys: [key] };

    // Two starts at once: exactly one wins, the other is told to wait; only one spend happened.
    const both = await Promise.all([
      api(gatewayUrl, user.idToken, 'POST', '/api/generations', body),
      api(gatewayUrl, user.idToken, 'POST', '/api/generations', body),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 429]);
    const winner = both.find((r) => r.status === 202)!;
    const loser = both.find((r) => r.status === 429)!;
    await expect429(loser, 'generations-in-flight', /still being created/);
    const { id } = (await winner.json()) as { id: string };
    expect((await getUser(user.sub))?.credits).toBe(6);
    const generations = await documentClient().send(
      new QueryCommand({
        TableName: env.TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :g)',
        ExpressionAttributeValues: { ':pk': userPk(user.sub), ':g': 'GENERATION#' },
        ConsistentRead: true,
      }),
    );
    expect(generations.Items?.map((g) => g.id)).toEqual([id]);

    // Once it is terminal, the next one may start.
    await pollGeneration(gatewayUrl, user.idToken, id);
    const next = await api(gatewayUrl, user.idToken, 'POST', '/api/generations', body);
    expect(next.status).toBe(202);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'generation')).toHaveLength(2);
    await pollGeneration(gatewayUrl, user.idToken, ((await next.json()) as { id: string }).id);
    await expectLedgerBalanced(user.sub);
  });
});
