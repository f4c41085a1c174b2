import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, inject, it, vi } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { getGeneration } from '../../functions/adapters/generations';
import { SWEEP_PK } from '../../functions/adapters/support/keys';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { headObject } from '../../functions/adapters/storage';
import { sweepMarkerPut } from '../../functions/adapters/sweeper';
import { generationTimeBudgetSettings } from '../../functions/config/generation-time-budget';
import { sweepStrandedGenerations } from '../../functions/use-cases/sweep-generations';
import { handler as createGeneration } from '../../functions/http/create-generation';
import { handler as sweep } from '../../functions/scheduled/sweep-generations';
import { createTestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';
import { seedHeadshots } from '../helpers/gallery';
import { spendOnGeneration } from '../helpers/generation-items';

/*
 * Nothing stranded: a fault injected between the spend and StartExecution (the function "dies": StartExecution never
 * answers) leaves a generation with 6 credits reserved and no execution; the sweeper — invoked directly, as
 * EventBridge Scheduler would every 5 minutes — refunds it once no execution can still be running it, and only then
 * (functions/domain/generation-deadline.ts): a generation whose last call was admitted just before its deadline is
 * left to finish.
 */

const startExecution = vi.hoisted(() => ({ hang: false }));
vi.mock('../../functions/adapters/executions', async (importOriginal) => {
  const real = await importOriginal<Record<string, unknown>>();
  return {
    ...real,
    startGenerationExecution: (...args: unknown[]) =>
      startExecution.hang
        ? new Promise<never>(() => undefined)
        : (real.startGenerationExecution as (...a: unknown[]) => Promise<string>)(...args),
  };
});

const { gatewayUrl, runtimeConfig, env } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const MINUTE = 60_000;

function event(sub: string, email: string, body: unknown): APIGatewayProxyEventV2WithJWTAuthorizer {
  return {
    version: '2.0',
    routeKey: 'POST /api/generations',
    rawPath: '/api/generations',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    isBase64Encoded: false,
    body: JSON.stringify(body),
    requestContext: {
      requestId: `sweeper-${sub}`,
      authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: { sub, email }, scopes: [] } },
    },
  } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
}

async function markersOf(sub: string) {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': SWEEP_PK },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).filter((m) => m.userId === sub);
}

describe('the generation sweeper', () => {
  it('refunds a generation stranded between spend and StartExecution once its deadline has passed', async () => {
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const [key] = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama.jpg')]);

    // The generation is created long enough "ago" (only Date is faked) that no execution could still run it in real
    // time, while every other test file's generations, sharing this table, stay far from that.
    const budget = generationTimeBudgetSettings();
    const createdAt = Date.now() - budget.sweepAfterMs - 5 * MINUTE;
    startExecution.hang = true;
    vi.useFakeTimers({ toFake: ['Date'], now: createdAt });
    try {
      void createGeneration(
        event(user.sub, user.email, { style: 'professional', background: 'office', referenceKeys: [key] }),
      );
      await vi.waitFor(async () => expect((await getUser(user.sub))?.credits).toBe(0), {
        timeout: 20_000,
      });
    } finally {
      vi.useRealTimers();
    }
    const [marker] = await markersOf(user.sub);
    expect(marker).toBeDefined();
    const id = String(marker!.generationId);
    expect(await getGeneration(user.sub, id)).toMatchObject({ status: 'queued', creditsReserved: 6 });

    // Before its deadline (30 minutes after creation by default) the sweeper leaves it alone, and past it too while
    // an execution could still be running it: up to the deadline plus a slot's worst case and the finishing steps.
    for (const at of [
      createdAt + 15 * MINUTE,
      createdAt + budget.maxRuntimeMs,
      createdAt + budget.sweepAfterMs,
    ]) {
      expect((await sweepStrandedGenerations(at)).compensated).not.toContain(id);
    }
    expect((await getUser(user.sub))?.credits).toBe(0);

    // Past it: refunded, failed with a reason, marker gone; the next sweep does nothing more.
    const late = await sweepStrandedGenerations();
    expect(late.compensated).toContain(id);
    expect(await getGeneration(user.sub, id)).toMatchObject({
      status: 'failed',
      creditsRefunded: 6,
      error: { code: 'TIMED_OUT' },
    });
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await markersOf(user.sub)).toEqual([]);
    expect((await sweep()).compensated).not.toContain(id);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'refund')).toHaveLength(6);
    await expectLedgerBalanced(user.sub);
  });

  it('leaves alone a generation whose last call, admitted just before the deadline, is still running', async () => {
    // Created 30 minutes + the slot's worst case + 1 minute ago: its admission deadline has passed, and a call
    // admitted just before it ran its whole Task timeout and is now being released, finalized and mailed. The old
    // cutoff (deadline + 60 s) compensated it here: refunded slots, its 5 headshots' credits, "timed out".
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const budget = generationTimeBudgetSettings();
    const createdAt = new Date(
      Date.now() - budget.deadlineMinutes * MINUTE - budget.slotSeconds * 1000 - MINUTE,
    ).toISOString();
    const id = ulid(Date.parse(createdAt));
    await spendOnGeneration(user.sub, {
      id,
      createdAt: Date.parse(createdAt),
      status: 'running',
      extraItems: [sweepMarkerPut(user.sub, id, createdAt)],
    });
    const headshots = await seedHeadshots(user.sub, 5, { withImages: 5, generationId: id });
    const [marker] = await markersOf(user.sub);
    expect(Date.parse(String(marker!.deadline))).toBeLessThan(Date.now());

    const result = await sweepStrandedGenerations();
    expect(result.compensated).not.toContain(id);
    const generation = await getGeneration(user.sub, id);
    expect(generation?.status).toBe('running');
    expect(generation?.error).toBeUndefined();
    expect(generation?.closedAt).toBeUndefined();
    expect((await getUser(user.sub))?.credits).toBe(0);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'refund')).toEqual([]);
    for (const headshot of headshots) expect(await headObject('results', headshot.imageKey)).toBeDefined();
    expect(await markersOf(user.sub)).toHaveLength(1);
  });
});
