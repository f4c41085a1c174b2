import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { secretsChanged } from '../../functions/config';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { slotRefundRef } from '../../functions/domain/generation';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';
import {
  startFakeOpenAi,
  startGenerationStack,
  type FakeOpenAi,
  type GenerationStack,
} from '../helpers/generation-stack';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * Loud, not silent, in the cloud: a deployed stage (STAGE set) without the OpenAI key uses the `openai` provider
 * anyway, so every slot fails with ProviderMisconfiguredError and is refunded — never a silent offline fallback that
 * charges for filtered selfies. When the key arrives (the secret re-read after its TTL), the next generation works.
 */

const { runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

let fake: FakeOpenAi;
let stack: GenerationStack;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  delete process.env.IMAGE_PROVIDER;
  delete process.env.OPENAI_API_KEY;
  stack = await startGenerationStack({
    env: { STAGE: 'dev', OPENAI_BASE_URL: fake.baseURL, GENERATION_MAX_CONCURRENCY: '6' },
    ...pool,
  });
});

afterAll(async () => {
  await stack?.stop();
  await fake?.close();
  delete process.env.STAGE;
});

async function startWithPhotos(user: TestUser): Promise<string> {
  expect((await api(stack.gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  const keys = await uploadPhotos(stack.gatewayUrl, user.idToken, [
    fixturePhoto('obama.jpg'),
    fixturePhoto('obama2.jpg'),
  ]);
  const res = await api(stack.gatewayUrl, user.idToken, 'POST', '/api/generations', {
    style: 'professional',
    background: 'studio',
    referenceKeys: keys,
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

describe('the cloud without an OpenAI key', () => {
  it(
    'fails every slot without calling anyone and refunds all 6 credits (credits = Σ ledger)',
    { timeout: 90_000 },
    async () => {
      const user = await createTestUser(pool);
      const id = await startWithPhotos(user);
      const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id);

      expect(final).toMatchObject({ status: 'failed', headshots: [], creditsRefunded: 6 });
      expect(final.error?.message).toContain('refunded');
      expect(fake.calls).toHaveLength(0);
      expect((await getUser(user.sub))?.credits).toBe(6);
      const refunds = (await listLedger(user.sub)).filter((e) => e.reason === 'refund').map((e) => e.ref);
      expect(refunds.sort()).toEqual([0, 1, 2, 3, 4, 5].map((slot) => slotRefundRef(id, slot)).sort());
      await expectLedgerBalanced(user.sub);
    },
  );

  it('uses the key as soon as it arrives, without a new cold start', { timeout: 90_000 }, async () => {
    process.env.OPENAI_API_KEY = 'sk-arrived-later';
    secretsChanged();
    const user = await createTestUser(pool);
    const id = await startWithPhotos(user);
    const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id);

    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
    expect(fake.calls).toHaveLength(6);
    await expectLedgerBalanced(user.sub);
  });
});
