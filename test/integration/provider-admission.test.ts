import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireSlot, releaseSlot } from '../../functions/adapters/admission';
import { documentClient } from '../../functions/adapters/aws';
import { getGeneration } from '../../functions/adapters/generations';
import { purchaseSk, userPk } from '../../functions/adapters/keys';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { storageSettings } from '../../functions/config/storage';
import { LEASE_MS } from '../../functions/domain/admission';
import { slotRefundRef } from '../../functions/domain/generation';
import { type TestUser } from '../helpers/cognito';
import {
  api,
  newUserWithPhotos,
  pollGeneration,
  startGeneration,
  type GenerationView,
} from '../helpers/generation';
import { openAiErrors, useOpenAiGenerationStack, type EditAnswer } from '../helpers/generation-stack';
import { expectLedgerBalanced } from '../helpers/ledger';
import { configureHandlers } from '../helpers/handler-config';

/*
 * The provider admission point under real limits: the `openai` provider (the real SDK) against the rate-limited
 * OpenAI stand-in, the real ASL on the local Step Functions runner, the admission state in DynamoDB Local. To keep
 * each test to seconds, a "minute" of the stand-in lasts 6 s and PROVIDER_IMAGES_PER_MINUTE is scaled to match
 * (30 images per 6 s = 300 per minute): the same load shape at 10× speed.
 */

const SCALED_MINUTE_MS = 6_000;

const gen = useOpenAiGenerationStack();
const users: TestUser[] = [];

afterEach(async () => {
  await gen.stack.settled();
  for (const user of users.splice(0)) await expectLedgerBalanced(user.sub);
});

async function userWithPhotos(): Promise<{ user: TestUser; keys: string[] }> {
  const created = await newUserWithPhotos(gen.stack.gatewayUrl, ['obama.jpg', 'obama-720p.jpg']);
  users.push(created.user);
  return created;
}

const generate = (user: TestUser, keys: string[]) => startGeneration(gen.stack.gatewayUrl, user, keys);

async function view(user: TestUser, id: string): Promise<GenerationView> {
  const res = await api(gen.stack.gatewayUrl, user.idToken, 'GET', `/api/generations/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as GenerationView;
}

const refunds = async (sub: string) => (await listLedger(sub)).filter((e) => e.reason === 'refund');

describe('five customers at once against a provider allowing 30 images a minute', () => {
  it(
    'delivers 30 of 30 headshots, refunds nothing, and every balance equals its ledger',
    { timeout: 120_000 },
    async () => {
      gen.fake.rateLimit = { limit: 30, windowMs: SCALED_MINUTE_MS, burst: 5 };
      // Fewer calls in flight (3) than customers (5), and each call a second long: admission shares the provider
      // fairly (one slot per generation first), so at least two generations wait in line before their first slot
      // runs, for a whole call at least (four polls), whatever the order in which they arrive.
      gen.fake.latencyMs = 1_000;
      configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '300', PROVIDER_MAX_CONCURRENCY: '3' });
      const customers = await Promise.all([1, 2, 3, 4, 5].map(() => userWithPhotos()));
      const ids = await Promise.all(customers.map(({ user, keys }) => generate(user, keys)));
      const finals = await Promise.all(
        customers.map(({ user }, i) => pollGeneration(gen.stack.gatewayUrl, user.idToken, ids[i]!, 110_000)),
      );

      for (const [i, { final }] of finals.entries()) {
        expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0, queue: null });
        expect(final.headshots).toHaveLength(6);
        const { user } = customers[i]!;
        expect(await refunds(user.sub)).toEqual([]);
        expect((await getUser(user.sub))?.credits).toBe(0);
        await expectLedgerBalanced(user.sub);
      }
      expect(gen.fake.stats.served).toBe(30);
      // Never more calls in flight than PROVIDER_MAX_CONCURRENCY, whatever the provider would have allowed.
      expect(gen.fake.stats.maxInFlight).toBeLessThanOrEqual(3);
      // Somebody waited in line: at least one generation reported a place before it ran.
      const places = finals.flatMap(({ seen }) => seen.map((v) => v.queue?.position ?? 0));
      expect(Math.max(...places)).toBeGreaterThan(0);
    },
  );
});

describe('a provider that answers 429 until past the deadline', () => {
  it('refunds every slot exactly once and never sooner than the deadline', { timeout: 60_000 }, async () => {
    // A 9-second deadline: every slot keeps going back in line (the 429 names 1 s) until it passes — room for several
    // tries per slot even on a loaded machine.
    configureHandlers({
      PROVIDER_IMAGES_PER_MINUTE: '0',
      PROVIDER_MAX_CONCURRENCY: '0',
      GENERATION_DEADLINE_MINUTES: '0.15',
    });
    gen.fake.answer = () => openAiErrors.rateLimited;
    try {
      const { user, keys } = await userWithPhotos();
      const id = await generate(user, keys);
      const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id, 50_000);

      expect(final).toMatchObject({ status: 'failed', creditsRefunded: 6, headshots: [] });
      expect(final.error?.code).toBe('PROVIDER_FAILED');
      const refs = (await refunds(user.sub)).map((e) => e.ref).sort();
      expect(refs).toEqual([0, 1, 2, 3, 4, 5].map((slot) => slotRefundRef(id, slot)).sort());
      expect((await getUser(user.sub))?.credits).toBe(6);
      // Throttling alone did not refund early: every slot was tried again and again until the deadline.
      expect(gen.fake.calls.length).toBeGreaterThan(12);
      const generation = await getGeneration(user.sub, id);
      const ended = Date.parse(generation!.completedAt!);
      expect(ended).toBeGreaterThanOrEqual(Date.parse(generation!.createdAt) + 0.15 * 60_000);
    } finally {
      configureHandlers({ GENERATION_DEADLINE_MINUTES: '30' });
    }
  });
});

describe('with the line full', () => {
  it(
    "starts a Pro buyer's generation queued later before a free customer's queued earlier, others in arrival order",
    { timeout: 120_000 },
    async () => {
      configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '1' });
      // The provider holds its first call until the line has formed.
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      gen.fake.answer = async (call): Promise<EditAnswer> => {
        if (call.index === 0) await opened;
        return 'image';
      };
      const [blocker, freeFirst, pro, freeLast] = await Promise.all([1, 2, 3, 4].map(() => userWithPhotos()));
      await documentClient().send(
        new PutCommand({
          TableName: storageSettings().TABLE_NAME,
          Item: {
            PK: userPk(pro!.user.sub),
            SK: purchaseSk(`cs_test_${pro!.user.sub}`),
            type: 'purchase',
            packId: 'pro',
            credits: 100,
          },
        }),
      );
      const blockerId = await generate(blocker!.user, blocker!.keys);
      while (gen.fake.calls.length < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const waiting: [TestUser, string][] = [];
      for (const customer of [freeFirst!, pro!, freeLast!]) {
        const id = await generate(customer.user, customer.keys);
        // Each is in line (a place recorded, not running) before the next one arrives.
        for (;;) {
          const v = await view(customer.user, id);
          if (v.queue && v.queue.position > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        waiting.push([customer.user, id]);
      }
      const places = await Promise.all(waiting.map(([user, id]) => view(user, id)));
      for (const place of places) {
        expect(place.queue).toMatchObject({ position: expect.any(Number), etaSeconds: expect.any(Number) });
      }
      open();

      const admitted: number[] = [];
      for (const [user, id] of [[blocker!.user, blockerId] as const, ...waiting]) {
        const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id, 100_000);
        expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
        admitted.push(Date.parse((await getGeneration(user.sub, id))!.admittedAt!));
      }
      const [, freeFirstAt, proAt, freeLastAt] = admitted as [number, number, number, number];
      expect(proAt).toBeLessThan(freeFirstAt);
      expect(freeFirstAt).toBeLessThan(freeLastAt);
      expect(gen.fake.stats.maxInFlight).toBe(1);
    },
  );
});

describe('a holder that crashes', () => {
  it('loses its lease when it expires, and the capacity returns', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '1' });
    const t0 = Date.now();
    const ask = (generationId: string, now: number) =>
      acquireSlot(
        {
          generationId,
          userId: 'crash-test',
          slot: 0,
          round: 0,
          priority: 'standard',
          startedAt: new Date(t0).toISOString(),
        },
        now,
      );
    const holder = await ask('01CRASHHOLDER0000000000000A', t0);
    expect(holder.granted).toBe(true);
    // The holder never releases (its Lambda died). The next slot waits while the lease lasts…
    const early = await ask('01CRASHWAITER0000000000000B', t0 + 1_000);
    expect(early).toMatchObject({ granted: false, position: 2 });
    const later = await ask('01CRASHWAITER0000000000000B', t0 + LEASE_MS - 1_000);
    expect(later.granted).toBe(false);
    // …and gets the permit once it has expired.
    const after = await ask('01CRASHWAITER0000000000000B', t0 + LEASE_MS + 1_000);
    expect(after.granted).toBe(true);
    await releaseSlot(after.leaseId!, undefined, t0 + LEASE_MS + 2_000);
    // A late release of the expired lease changes nothing.
    await releaseSlot(holder.leaseId!, undefined, t0 + LEASE_MS + 3_000);
    const next = await ask('01CRASHWAITER0000000000000C', t0 + LEASE_MS + 4_000);
    expect(next.granted).toBe(true);
    await releaseSlot(next.leaseId!, undefined, t0 + LEASE_MS + 5_000);
  });
});
