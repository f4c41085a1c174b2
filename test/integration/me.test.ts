import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { getUser, listLedger, spendCredits } from '../../functions/adapters/ledger';
import type { GenerationStatus } from '../../functions/domain/generation-status';
import { createTestUser } from '../helpers/cognito';
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

    for (const ended of ['succeeded', 'partial', 'failed'] as const) {
      await putGeneration(user.sub, ended);
      expect((await (await me(user.idToken)).json()).activeGeneration).toBeNull();
    }
  });
});
