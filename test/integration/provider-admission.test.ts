import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { getGeneration } from '../../functions/adapters/generations';
import { purchaseSk, userPk } from '../../functions/adapters/support/keys';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { reclaimExpired } from '../../functions/adapters/provider-queue/leases';
import { queueUsage, resetQueueUsage } from '../../functions/adapters/provider-queue/usage';
import { storageSettings } from '../../functions/config/storage';
import { slotRefundRef } from '../../functions/domain/slots';
import { leaseId } from '../../functions/domain/provider-queue-order';
import { dispatchProviderQueue } from '../../functions/use-cases/dispatch-provider-queue';
import { enqueueSlot } from '../../functions/use-cases/enqueue-provider-call';
import { type TestUser } from '../helpers/cognito';
import { api, pollGeneration, startGeneration, type GenerationView } from '../helpers/generation';
import { openAiErrors, useOpenAiGenerationStack, type EditAnswer } from '../helpers/generation-stack';
import { configureHandlers } from '../helpers/handler-config';
import { holdLease, inFlight, leaseItem, lineOf } from '../helpers/provider-queue';

/*
 * The provider queue under real limits: the `openai` provider (the real SDK) against the rate-limited OpenAI
 * stand-in, the real ASL on the local Step Functions runner (slots wait as task tokens), the dispatcher fed by the
 * local SQS wake-up queue, the line in DynamoDB Local. To keep each test to seconds, a "minute" of the stand-in lasts
 * 6 s and PROVIDER_IMAGES_PER_MINUTE is scaled to match (30 images per 6 s = 300 per minute). Orders are asserted
 * from what the provider saw and when each generation was admitted, never from durations.
 */

const SCALED_MINUTE_MS = 6_000;

const gen = useOpenAiGenerationStack();
const table = () => storageSettings().TABLE_NAME;

afterEach(async () => {
  // Before the generation stack's own afterEach checks the users' ledgers (after hooks run last registered first).
  await gen.stack.settled();
  configureHandlers({
    PROVIDER_PRIORITY_HEAD_START_SECONDS: '300',
    GENERATION_DEADLINE_MINUTES: '30',
    PROVIDER_FREE_SHARE: '0.25',
  });
});

const userWithPhotos = () => gen.userWithPhotos(['obama.jpg', 'obama-720p.jpg']);

const generate = (user: TestUser, keys: string[]) => startGeneration(gen.stack.gatewayUrl, user, keys);

async function view(user: TestUser, id: string): Promise<GenerationView> {
  const res = await api(gen.stack.gatewayUrl, user.idToken, 'GET', `/api/generations/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as GenerationView;
}

/** Waits until the generation reports a place in line (it is waiting, not running). */
async function inLine(user: TestUser, id: string): Promise<GenerationView> {
  for (;;) {
    const v = await view(user, id);
    if (v.queue && v.queue.position > 0) return v;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A purchase item as fulfilment writes it (docs/architecture.md §2). */
async function bought(user: TestUser, packId: string, extra: Record<string, unknown> = {}) {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: userPk(user.sub),
        SK: purchaseSk(`cs_test_${user.sub}_${packId}`),
        type: 'purchase',
        packId,
        credits: 100,
        amountTotal: 9_900,
        currency: 'usd',
        status: 'completed',
        creditsReversed: 0,
        ...extra,
      },
    }),
  );
}

/** A provider that holds its first call until `open()`, so a line forms behind it. */
function holdFirstCall(): () => void {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gen.fake.answer = async (call): Promise<EditAnswer> => {
    if (call.index === 0) await opened;
    return 'image';
  };
  return open;
}

const refunds = async (sub: string) => (await listLedger(sub)).filter((e) => e.reason === 'refund');
const admittedAt = async (user: TestUser, id: string) =>
  Date.parse((await getGeneration(user.sub, id))!.admittedAt!);

describe('five customers at once against a provider allowing 30 images a minute', () => {
  it(
    'delivers 30 of 30 headshots, refunds nothing, and every balance equals its ledger',
    // 30 likeness checks on a shared 2-core machine: a budget, not an expectation.
    { timeout: 240_000 },
    async () => {
      gen.fake.rateLimit = { limit: 30, windowMs: SCALED_MINUTE_MS, burst: 5 };
      // Fewer calls in flight (3) than customers (5), a second per call: at least two generations wait in line.
      gen.fake.latencyMs = 1_000;
      configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '300', PROVIDER_MAX_CONCURRENCY: '3' });
      const customers = await Promise.all([1, 2, 3, 4, 5].map(() => userWithPhotos()));
      const ids = await Promise.all(customers.map(({ user, keys }) => generate(user, keys)));
      const finals = await Promise.all(
        customers.map(({ user }, i) => pollGeneration(gen.stack.gatewayUrl, user.idToken, ids[i]!, 230_000)),
      );

      for (const [i, { final }] of finals.entries()) {
        expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0, queue: null });
        expect(final.headshots).toHaveLength(6);
        const { user } = customers[i]!;
        expect(await refunds(user.sub)).toEqual([]);
        expect((await getUser(user.sub))?.credits).toBe(0);
      }
      expect(gen.fake.stats.served).toBe(30);
      expect(gen.fake.stats.maxInFlight).toBeLessThanOrEqual(3);
      // Somebody waited in line: at least one generation reported a place before it ran.
      const places = finals.flatMap(({ seen }) => seen.map((v) => v.queue?.position ?? 0));
      expect(Math.max(...places)).toBeGreaterThan(0);
      // Every lease came back.
      expect(await inFlight()).toBe(0);
    },
  );
});

describe('with the line full', () => {
  it(
    'serves generation by generation, in arrival order, with exact places in line',
    { timeout: 150_000 },
    async () => {
      configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '1' });
      const open = holdFirstCall();
      const customers = await Promise.all([1, 2, 3].map(() => userWithPhotos()));
      const blockerId = await generate(customers[0]!.user, customers[0]!.keys);
      while (gen.fake.calls.length < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const waiting: [TestUser, string][] = [];
      for (const customer of customers.slice(1)) {
        const id = await generate(customer.user, customer.keys);
        await inLine(customer.user, id);
        waiting.push([customer.user, id]);
      }
      // Nobody ahead of the first waiting generation but the running one; one more ahead of the second.
      expect((await view(...waiting[0]!)).queue?.position).toBe(1);
      expect((await view(...waiting[1]!)).queue?.position).toBe(2);
      open();

      const sets: number[][] = [];
      for (const [user, id] of [[customers[0]!.user, blockerId] as const, ...waiting]) {
        const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id, 120_000);
        expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
        sets.push(final.headshots.map((h) => Date.parse(h.createdAt)));
      }
      // One call at a time, every headshot of a generation before any of the next one's.
      expect(Math.max(...sets[0]!)).toBeLessThanOrEqual(Math.min(...sets[1]!));
      expect(Math.max(...sets[1]!)).toBeLessThanOrEqual(Math.min(...sets[2]!));
      expect(gen.fake.stats.maxInFlight).toBe(1);
    },
  );

  it(
    'puts every paid pack ahead of free accounts, a buyer refunded past the threshold among the free',
    { timeout: 180_000 },
    async () => {
      // No free share: the order is strict (the share's interleaving is the dispatcher's unit tests'), and a head
      // start of 6 s for the Pro buyer within the paid lane.
      configureHandlers({
        PROVIDER_IMAGES_PER_MINUTE: '0',
        PROVIDER_MAX_CONCURRENCY: '1',
        PROVIDER_PRIORITY_HEAD_START_SECONDS: '6',
        PROVIDER_FREE_SHARE: '0',
      });
      const open = holdFirstCall();
      const [blocker, free, starter, refunded, pro] = await Promise.all(
        [1, 2, 3, 4, 5].map(() => userWithPhotos()),
      );
      await bought(starter!.user, 'starter', { credits: 40, amountTotal: 3_500 });
      await bought(pro!.user, 'pro');
      // Bought Pro, then 60 % of it refunded: past the threshold (half), no longer paid.
      await bought(refunded!.user, 'pro', { status: 'refunded', creditsReversed: 60 });
      await generate(blocker!.user, blocker!.keys);
      while (gen.fake.calls.length < 1) await new Promise((resolve) => setTimeout(resolve, 50));

      const freeId = await generate(free!.user, free!.keys);
      const freeStart = Date.parse((await getGeneration(free!.user.sub, freeId))!.createdAt);
      const refundedId = await generate(refunded!.user, refunded!.keys);
      const starterId = await generate(starter!.user, starter!.keys);
      // The Pro buyer starts well after the free ones, and more than its head start after the Starter buyer.
      while (Date.now() < freeStart + 12_000) await new Promise((resolve) => setTimeout(resolve, 200));
      const proId = await generate(pro!.user, pro!.keys);
      const waiting = [
        [free, freeId],
        [refunded, refundedId],
        [starter, starterId],
        [pro, proId],
      ] as const;
      for (const [c, id] of waiting) await inLine(c!.user, id);
      open();

      const order = [];
      for (const [c, id] of waiting) {
        const { final } = await pollGeneration(gen.stack.gatewayUrl, c!.user.idToken, id, 150_000);
        expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
        order.push(await admittedAt(c!.user, id));
      }
      const [freeAt, refundedAt, starterAt, proAt] = order as [number, number, number, number];
      expect(starterAt).toBeLessThan(proAt);
      expect(proAt).toBeLessThan(freeAt);
      expect(freeAt).toBeLessThan(refundedAt);
    },
  );
});

describe('a provider that answers 429 until past the deadline', () => {
  it('refunds every slot exactly once and never sooner than the deadline', { timeout: 60_000 }, async () => {
    configureHandlers({
      PROVIDER_IMAGES_PER_MINUTE: '0',
      PROVIDER_MAX_CONCURRENCY: '0',
      GENERATION_DEADLINE_MINUTES: '0.15',
      // The 429 names 1 s; the pause is never longer than that here.
      PROVIDER_MAX_PAUSE_SECONDS: '60',
    });
    gen.fake.answer = () => openAiErrors.rateLimited;
    const { user, keys } = await userWithPhotos();
    const id = await generate(user, keys);
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id, 50_000);

    expect(final).toMatchObject({ status: 'failed', creditsRefunded: 6, headshots: [] });
    const refs = (await refunds(user.sub)).map((e) => e.ref).sort();
    expect(refs).toEqual([0, 1, 2, 3, 4, 5].map((slot) => slotRefundRef(id, slot)).sort());
    expect((await getUser(user.sub))?.credits).toBe(6);
    // Throttling alone did not refund early: every slot was tried again and again until the deadline.
    expect(gen.fake.calls.length).toBeGreaterThan(12);
    const generation = await getGeneration(user.sub, id);
    expect(Date.parse(generation!.completedAt!)).toBeGreaterThanOrEqual(
      Date.parse(generation!.createdAt) + 0.15 * 60_000,
    );
  });
});

describe('admission, call by call', () => {
  // The execution's start: the same for every try of a Task.
  const startedAt = new Date().toISOString();
  const slot = (generationId: string, taskToken: string) => ({
    taskToken,
    generationId,
    userId: 'queue-test',
    slot: 2,
    round: 2,
    call: 0,
    startedAt,
  });

  it('admits a retried EnterLine once, and gives back the lease of a token that no longer waits', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '5' });
    const id = '01JQUEUERETRY00000000000000';
    const before = await inFlight();
    // The first try's ticket, then the retry's (a new token, the same slot and call): one ticket, the retry's.
    await enqueueSlot(slot(id, 'token-of-the-first-try'), 'standard');
    await enqueueSlot(slot(id, 'token-of-the-retry'), 'standard');
    const tickets = await lineOf(id);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.taskToken).toBe('token-of-the-retry');

    resetQueueUsage();
    await dispatchProviderQueue();
    // Admitted once; Step Functions does not know the token (InvalidToken): the lease came straight back.
    expect(queueUsage()).toMatchObject({ admitted: 1, callbacks: 1 });
    expect(await lineOf(id)).toEqual([]);
    expect(await inFlight()).toBe(before);
    expect(await leaseItem(leaseId({ generationId: id, slot: 2, call: 0 }))).toBeUndefined();
  });

  it('hands an existing lease to a retried EnterLine instead of taking a second permit', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '5' });
    const id = '01JQUEUEHANDOVER00000000000';
    const lease = leaseId({ generationId: id, slot: 2, call: 0 });
    // The first try was admitted (its lease counted) but its Task failed before it resumed.
    await holdLease(lease, 'token-of-the-first-try', Date.now());
    const before = await inFlight();
    await enqueueSlot(slot(id, 'token-of-the-retry'), 'standard');
    resetQueueUsage();
    await dispatchProviderQueue();
    // No new lease: the existing one passed to the retry's token (then came back, as no Task waits on it here).
    expect(queueUsage().admitted).toBe(0);
    expect(await lineOf(id)).toEqual([]);
    expect(await inFlight()).toBe(before - 1);
  });

  it("reclaims a crashed holder's lease once it expires, and only then", async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '5' });
    const id = '01JQUEUECRASH00000000000000';
    const now = Date.now();
    await holdLease(leaseId({ generationId: id, slot: 0, call: 0 }), 'token-of-a-crashed-holder', now);
    const held = await inFlight();
    expect(await reclaimExpired(now + 599_000)).toBe(0);
    expect(await inFlight()).toBe(held);
    expect(await reclaimExpired(now + 601_000)).toBe(1);
    expect(await inFlight()).toBe(held - 1);
    // Twice changes nothing.
    expect(await reclaimExpired(now + 602_000)).toBe(0);
  });
});
