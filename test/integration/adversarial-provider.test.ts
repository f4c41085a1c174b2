import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { reconcileGeneration } from '../../functions/adapters/executions';
import { getGeneration } from '../../functions/adapters/generations';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { slotRefundRef } from '../../functions/domain/generation';
import type * as OpenAiModule from '../../functions/adapters/image-providers/openai';
import { checkLedgersAfterEachTest } from '../adversarial/ledgers';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';
import {
  openAiErrors,
  startFakeOpenAi,
  startGenerationStack,
  type EditAnswer,
  type FakeOpenAi,
  type GenerationStack,
} from '../helpers/generation-stack';

/*
 * Image-provider faults through the real workflow (the `openai` provider and SDK against a local server speaking the
 * Images API; the route handlers, the task functions and statemachines/generation.asl.json in this process on the
 * shared emulators). generation-provider.test.ts covers 429-twice-then-success, 500 on every call and a permanent
 * refusal; this file adds the hang: a provider that does not answer within the client timeout, once (the retry
 * delivers) and always (the slot gives up and its credit comes back exactly once, even when the reconciliation
 * runs too), and a mix of throttling and hangs in one generation.
 *
 * The one liberty: the client timeout. In production it is OPENAI_TIMEOUT_MS (180 s); here the provider is built
 * with 4 s so a hang costs seconds, yet a loaded machine still answers the retry in time. Everything else — the
 * SDK's timeout error, its mapping to ProviderTimeoutError, the ASL's Retry (1 more attempt) and Catch, Finalize
 * and the refunds — is the real code.
 */

const CLIENT_TIMEOUT_MS = 4000;

vi.mock('../../functions/adapters/image-providers/openai', async (importOriginal) => {
  const original = await importOriginal<typeof OpenAiModule>();
  return {
    ...original,
    createOpenAiProvider: (options: Parameters<typeof original.createOpenAiProvider>[0]) =>
      original.createOpenAiProvider({ ...options, timeoutMs: CLIENT_TIMEOUT_MS }),
  };
});

const { runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const touch = checkLedgersAfterEachTest();

let fake: FakeOpenAi;
let stack: GenerationStack;
/** Resolves every answer the fake is holding back (a hung call), so nothing outlives the test. */
let releaseHung: () => void = () => undefined;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  stack = await startGenerationStack({
    env: {
      IMAGE_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-adversarial',
      OPENAI_BASE_URL: fake.baseURL,
      GENERATION_MAX_CONCURRENCY: '6',
    },
    ...pool,
  });
});

afterAll(async () => {
  releaseHung();
  await stack?.stop();
  await fake?.close();
});

afterEach(() => {
  releaseHung();
  fake.calls.length = 0;
  fake.answer = () => 'image';
});

/** An answer that never comes while the test runs (released at its end). */
function hang(): Promise<EditAnswer> {
  return new Promise<void>((resolve) => {
    const previous = releaseHung;
    releaseHung = () => {
      previous();
      resolve();
    };
  }).then(() => 'image' as const);
}

async function generateWithPhotos(): Promise<{ user: TestUser; id: string }> {
  const user = await createTestUser(pool);
  touch(user.sub);
  expect((await api(stack.gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  const keys = await uploadPhotos(stack.gatewayUrl, user.idToken, [
    fixturePhoto('obama-720p.jpg'),
    fixturePhoto('obama2.jpg'),
  ]);
  const res = await api(stack.gatewayUrl, user.idToken, 'POST', '/api/generations', {
    style: 'professional',
    background: 'office',
    referenceKeys: keys,
  });
  expect(res.status).toBe(202);
  return { user, id: ((await res.json()) as { id: string }).id };
}

const refundRefs = async (sub: string) =>
  (await listLedger(sub))
    .filter((e) => e.reason === 'refund')
    .map((e) => e.ref)
    .sort();

describe('provider faults: hangs past the client timeout', () => {
  it('every first call hangs, every retry answers → 6 headshots, 12 calls, nothing refunded', async () => {
    fake.answer = (call) => (call.index < 6 ? hang() : 'image');
    const { user, id } = await generateWithPhotos();
    const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id);
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
    expect(final.headshots).toHaveLength(6);
    expect(fake.calls).toHaveLength(12);
    expect((await getUser(user.sub))?.credits).toBe(0);
    expect(await refundRefs(user.sub)).toEqual([]);
  });

  it(
    'every call hangs → each slot tries twice, then failed and 6 credits refunded exactly once (the reconciliation adds none)',
    { timeout: 90_000 },
    async () => {
      fake.answer = () => hang();
      const { user, id } = await generateWithPhotos();
      const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({ status: 'failed', stage: 'failed', headshots: [], creditsRefunded: 6 });
      expect(final.error).toEqual({ code: 'PROVIDER_FAILED', message: expect.stringContaining('refunded') });
      // ProviderTimeoutError is retried once: two calls per slot.
      expect(fake.calls).toHaveLength(12);
      expect((await getUser(user.sub))?.credits).toBe(6);
      expect(await refundRefs(user.sub)).toEqual(
        [0, 1, 2, 3, 4, 5].map((slot) => slotRefundRef(id, slot)).sort(),
      );

      // The API's reconciliation (e.g. a late poll, or EventBridge) compensates again: nothing more moves.
      const generation = (await getGeneration(user.sub, id))!;
      await reconcileGeneration(generation, Date.now() + 3_600_000);
      // The hung calls finally answer: the closed generation accepts no late headshot.
      releaseHung();
      await stack.settled();
      expect(await refundRefs(user.sub)).toHaveLength(6);
      expect((await getUser(user.sub))?.credits).toBe(6);
      expect((await pollGeneration(stack.gatewayUrl, user.idToken, id)).final).toMatchObject({
        status: 'failed',
        headshots: [],
      });
    },
  );

  it(
    'throttling and hangs in one generation: 3 slots answered 429, 3 hang, then all answer → 6 headshots',
    { timeout: 90_000 },
    async () => {
      fake.answer = (call) => {
        if (call.index < 6) return call.index % 2 ? openAiErrors.rateLimited : hang();
        return 'image';
      };
      const { user, id } = await generateWithPhotos();
      const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
      expect(final.headshots.map((h) => h.slot)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(fake.calls).toHaveLength(12);
      expect((await getUser(user.sub))?.credits).toBe(0);
    },
  );
});
