import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { reconcileGeneration } from '../../functions/use-cases/reconcile-generation';
import { getGeneration } from '../../functions/adapters/generations';
import { getUser } from '../../functions/adapters/ledger';
import { slotRefundRef } from '../../functions/domain/slots';
import type * as OpenAiModule from '../../functions/adapters/image-providers/openai';
import { checkLedgersAfterEachTest } from '../adversarial/ledgers';
import { type TestUser } from '../helpers/cognito';
import { newUserWithPhotos, pollGeneration, startGeneration } from '../helpers/generation';
import { refundRefs } from '../helpers/ledger';
import { openAiErrors, useOpenAiGenerationStack, type EditAnswer } from '../helpers/generation-stack';

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

const touch = checkLedgersAfterEachTest();

const gen = useOpenAiGenerationStack();
/** Resolves every answer the fake is holding back (a hung call), so nothing outlives the test. */
let releaseHung: () => void = () => undefined;

// Registered after the stack's hooks, so they run first: hung calls are released before the stack stops.
afterEach(() => releaseHung());
afterAll(() => releaseHung());

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
  const { user, keys } = await newUserWithPhotos(gen.stack.gatewayUrl, ['obama-720p.jpg', 'obama2.jpg']);
  touch(user.sub);
  const choice = { style: 'professional', background: 'office' };
  return { user, id: await startGeneration(gen.stack.gatewayUrl, user, keys, choice) };
}

describe('provider faults: hangs past the client timeout', () => {
  it('every first call hangs, every retry answers → 6 headshots, 12 calls, nothing refunded', async () => {
    gen.fake.answer = (call) => (call.index < 6 ? hang() : 'image');
    const { user, id } = await generateWithPhotos();
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
    expect(final.headshots).toHaveLength(6);
    expect(gen.fake.calls).toHaveLength(12);
    expect((await getUser(user.sub))?.credits).toBe(0);
    expect(await refundRefs(user.sub)).toEqual([]);
  });

  it(
    'every call hangs → each slot tries twice, then failed and 6 credits refunded exactly once (the reconciliation adds none)',
    { timeout: 90_000 },
    async () => {
      gen.fake.answer = () => hang();
      const { user, id } = await generateWithPhotos();
      const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({ status: 'failed', stage: 'failed', headshots: [], creditsRefunded: 6 });
      expect(final.error).toEqual({ code: 'PROVIDER_FAILED', message: expect.stringContaining('refunded') });
      // ProviderTimeoutError is retried once: two calls per slot.
      expect(gen.fake.calls).toHaveLength(12);
      expect((await getUser(user.sub))?.credits).toBe(6);
      expect(await refundRefs(user.sub)).toEqual(
        [0, 1, 2, 3, 4, 5].map((slot) => slotRefundRef(id, slot)).sort(),
      );

      // The API's reconciliation (e.g. a late poll, or EventBridge) compensates again: nothing more moves.
      const generation = (await getGeneration(user.sub, id))!;
      await reconcileGeneration(generation, Date.now() + 3_600_000);
      // The hung calls finally answer: the closed generation accepts no late headshot.
      releaseHung();
      await gen.stack.settled();
      expect(await refundRefs(user.sub)).toHaveLength(6);
      expect((await getUser(user.sub))?.credits).toBe(6);
      expect((await pollGeneration(gen.stack.gatewayUrl, user.idToken, id)).final).toMatchObject({
        status: 'failed',
        headshots: [],
      });
    },
  );

  it(
    'throttling and hangs in one generation: 3 slots answered 429, 3 hang, then all answer → 6 headshots',
    { timeout: 90_000 },
    async () => {
      gen.fake.answer = (call) => {
        if (call.index < 6) return call.index % 2 ? openAiErrors.rateLimited : hang();
        return 'image';
      };
      const { user, id } = await generateWithPhotos();
      const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
      expect(final.headshots.map((h) => h.slot)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(gen.fake.calls).toHaveLength(12);
      expect((await getUser(user.sub))?.credits).toBe(0);
    },
  );
});
