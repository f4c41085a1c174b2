import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it, vi } from 'vitest';
import { documentClient } from '../../functions/adapters/aws';
import { getGeneration } from '../../functions/adapters/generations';
import { SWEEP_PK } from '../../functions/adapters/keys';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { sweepStrandedGenerations } from '../../functions/use-cases/sweep-generations';
import { handler as createGeneration } from '../../functions/http/create-generation';
import { handler as sweep } from '../../functions/scheduled/sweep-generations';
import { createTestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * Nothing stranded: a fault injected between the spend and StartExecution (the function "dies": StartExecution never
 * answers) leaves a generation with 6 credits reserved and no execution; the sweeper — invoked directly, as
 * EventBridge Scheduler would every 5 minutes — refunds it once its deadline has passed, and only then.
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

    // The generation is created 40 minutes "ago" (only Date is faked), so its deadline has passed in real time
    // while every other test file's generations, sharing this table, stay far from theirs.
    startExecution.hang = true;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 40 * MINUTE });
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

    // Before its deadline (30 minutes after creation by default) the sweeper leaves it alone.
    const early = await sweepStrandedGenerations(Date.now() - 15 * MINUTE);
    expect(early.compensated).not.toContain(id);
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
});
