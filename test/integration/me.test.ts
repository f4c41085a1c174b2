import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { beginAccountDeletion } from '../../functions/adapters/account-deletion';
import { deleteObject, putObject } from '../../functions/adapters/storage';
import { documentClient } from '../../functions/adapters/support/aws';
import { getUser, listLedger, spendCredits } from '../../functions/adapters/ledger';
import type { GenerationStatus } from '../../functions/domain/generation-status';
import { createTestUser } from '../helpers/cognito';
import { api } from '../helpers/generation';
import { generationItem, type GenerationSeed } from '../helpers/generation-items';
import { expectLedgerBalanced } from '../helpers/ledger';

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

const me = (token: string) =>
  fetch(`${gatewayUrl}/api/me`, { headers: { Authorization: `Bearer ${token}` } });

describe('GET /api/me', () => {
  it('creates the user on 10 concurrent first calls: one item, 6 credits, one signup_bonus', async () => {
    const user = await createTestUser(pool);
    const responses = await Promise.all(Array.from({ length: 10 }, () => me(user.idToken)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const body of bodies) {
      expect(body).toEqual({
        id: user.sub,
        email: user.email,
        displayName: user.email.split('@')[0],
        credits: 6,
        signupBonus: 'granted',
        creditsOwed: 0,
        emailWhenReady: true,
        createdAt: bodies[0].createdAt,
        activeGeneration: null,
        // The local provider makes any canvas size, so the high-resolution option is offered (docs/decisions/009).
        highResolution: true,
      });
    }
    const ledger = await listLedger(user.sub);
    expect(ledger.filter((e) => e.reason === 'signup_bonus')).toHaveLength(1);
    await expectLedgerBalanced(user.sub);
  });

  it("answers 401 without a token and only ever shows the caller's own record", async () => {
    expect((await fetch(`${gatewayUrl}/api/me`)).status).toBe(401);
    const [a, b] = await Promise.all([createTestUser(pool), createTestUser(pool)]);
    await me(a.idToken);
    await me(b.idToken);
    await spendCredits({ sub: b.sub, amount: 6, ref: 'b-spend' });
    const asA = await (await me(a.idToken)).json();
    expect(asA).toMatchObject({ id: a.sub, email: a.email, credits: 6 });
    expect((await getUser(b.sub))?.credits).toBe(0);
    const asB = await (await me(b.idToken)).json();
    expect(asB).toMatchObject({ id: b.sub, credits: 0 });
    await expectLedgerBalanced(a.sub);
    await expectLedgerBalanced(b.sub);
  });
});

describe('GET /api/me activeGeneration', () => {
  const TableName = () => process.env.TABLE_NAME;

  /** A generation item of `sub` in `status`, made the user's latest as the spend transaction does. */
  async function putGeneration(sub: string, status: GenerationStatus, seed: GenerationSeed = {}) {
    const { id, item } = generationItem(sub, {
      status,
      style: 'creative',
      background: 'studio',
      referenceKeys: [`uploads/${sub}/a.jpg`],
      ...seed,
    });
    await documentClient().send(new PutCommand({ TableName: TableName(), Item: { ...item, progress: 53 } }));
    await documentClient().send(
      new UpdateCommand({
        TableName: TableName(),
        Key: { PK: `USER#${sub}`, SK: 'PROFILE' },
        UpdateExpression: 'SET lastGenerationId = :id',
        ExpressionAttributeValues: { ':id': id },
      }),
    );
    return id;
  }

  it('reports the generation still running, so another tab or device can resume it, and null once it ended', async () => {
    const user = await createTestUser(pool);
    await me(user.idToken);
    const id = await putGeneration(user.sub, 'running');
    expect((await (await me(user.idToken)).json()).activeGeneration).toEqual({
      id,
      status: 'running',
      progress: 53,
      headshotsExpected: 6,
      regeneratedFrom: null,
      edit: null,
      createdAt: expect.any(String),
    });

    const regeneration = await putGeneration(user.sub, 'queued', {
      slotCount: 1,
      regeneratedFrom: '01J0000000000000000000000A',
    });
    expect((await (await me(user.idToken)).json()).activeGeneration).toMatchObject({
      id: regeneration,
      status: 'queued',
      headshotsExpected: 1,
      regeneratedFrom: '01J0000000000000000000000A',
    });

    // An edit of a finished headshot (issue 36) says which headshot and what it changes.
    const request = { kind: 'retouch', strength: 'natural' } as const;
    await putGeneration(user.sub, 'running', {
      slotCount: 1,
      edit: { headshotId: '01J0000000000000000000000B', request },
    });
    expect((await (await me(user.idToken)).json()).activeGeneration).toMatchObject({
      headshotsExpected: 1,
      edit: { ...request, headshotId: '01J0000000000000000000000B' },
    });

    for (const ended of ['succeeded', 'partial', 'failed'] as const) {
      await putGeneration(user.sub, ended);
      expect((await (await me(user.idToken)).json()).activeGeneration).toBeNull();
    }
  });
});

describe("the wizard's draft kept with the account (GET/PUT/DELETE /api/draft)", () => {
  const BATCH = '01JD2Q5X8M4V7N3K6P9R2T5W8Y';
  const draftOf = (keys: string[]) => ({
    step: 3,
    style: 'creative',
    background: 'studio',
    // The outfit of step 2 (issue 36) is kept with the rest.
    outfit: 'blazer',
    photos: keys.map((key, n) => ({
      key,
      name: `photo-${n}.jpg`,
      preview: 'data:image/jpeg;base64,/9j/4AAQ',
    })),
  });
  const draftItem = async (sub: string) =>
    (
      await documentClient().send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: `USER#${sub}`, SK: 'WIZARD_DRAFT' } }),
      )
    ).Item;

  it('keeps one draft per account for 7 days, leaves out photos that are gone, and forgets it on DELETE', async () => {
    const [a, b] = await Promise.all([createTestUser(pool), createTestUser(pool)]);
    await Promise.all([me(a.idToken), me(b.idToken)]);
    const keys = [0, 1].map((n) => `uploads/${a.sub}/${BATCH}/${n}`);
    await Promise.all(keys.map((key) => putObject('uploads', key, Buffer.from('jpeg'), 'image/jpeg')));

    const before = Math.floor(Date.now() / 1000);
    expect((await api(gatewayUrl, a.idToken, 'PUT', '/api/draft', draftOf(keys))).status).toBe(204);
    const item = await draftItem(a.sub);
    // The table's TTL attribute: 7 days after the save (domain/retention.ts WIZARD_DRAFT_RETENTION_DAYS).
    expect(item?.expiresAt).toBeGreaterThanOrEqual(before + 7 * 86_400);
    expect(item?.expiresAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 7 * 86_400);

    const read = async (token: string) => (await api(gatewayUrl, token, 'GET', '/api/draft')).json();
    expect(await read(a.idToken)).toEqual({ draft: draftOf(keys) });
    expect(await read(b.idToken)).toEqual({ draft: null });

    await deleteObject('uploads', keys[0]!);
    const kept = draftOf(keys);
    expect(await read(a.idToken)).toEqual({ draft: { ...kept, photos: [kept.photos[1]] } });

    // Another user's key is refused, and nothing is written for either account.
    const foreign = await api(gatewayUrl, b.idToken, 'PUT', '/api/draft', draftOf([keys[1]!]));
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).error.code).toBe('INVALID_REFERENCE');
    expect(await draftItem(b.sub)).toBeUndefined();

    expect((await api(gatewayUrl, a.idToken, 'DELETE', '/api/draft')).status).toBe(204);
    expect(await read(a.idToken)).toEqual({ draft: null });
    expect((await api(gatewayUrl, a.idToken, 'DELETE', '/api/draft')).status).toBe(204);
  });

  it('reads a draft past its expiry as none (TTL deletes late), and writes none for an account being deleted', async () => {
    const user = await createTestUser(pool);
    await me(user.idToken);
    await documentClient().send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: { PK: `USER#${user.sub}`, SK: 'WIZARD_DRAFT', ...draftOf([]), expiresAt: 1_700_000_000 },
      }),
    );
    expect(await (await api(gatewayUrl, user.idToken, 'GET', '/api/draft')).json()).toEqual({ draft: null });

    await beginAccountDeletion(user.sub, new Date());
    const refused = await api(gatewayUrl, user.idToken, 'PUT', '/api/draft', draftOf([]));
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('ACCOUNT_DELETING');
    expect((await draftItem(user.sub))?.expiresAt).toBe(1_700_000_000);
  });
});
