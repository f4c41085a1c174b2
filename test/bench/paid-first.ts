import { setTimeout as sleep } from 'node:timers/promises';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { purchaseSk, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import { findPack } from '../../functions/domain/packs';
import { withFakeProvider } from './fake-provider';
import { signedUpUser, uploadFixtures, type BenchStack } from './http';

/**
 * "Paid work first" (issue 33, item 1; docs/decisions/019-paid-first.md): a crowd of free accounts starts a
 * generation at once against the rate-limited OpenAI stand-in, then customers who bought the cheapest pack start
 * theirs. The acceptance: every started generation delivers 6/6 (a free start may be refused up front, credits
 * intact), and each paid set completes within max(120 s, 0.35 × the free crowd's makespan) of its start.
 */

/** One customer's outcome. */
export interface PaidFirstCustomer {
  lane: 'free' | 'paid';
  /** Whether the start was refused up front (429 `provider-line`), and the credits left then. */
  refused: boolean;
  creditsAfterRefusal?: number;
  status?: string;
  delivered: number;
  refunded: number;
  /** Its POST → its completedAt, ms. */
  completionMs?: number;
}

/** What one run measured. */
export interface PaidFirstFigures {
  freeAccounts: number;
  paidCustomers: number;
  imagesPerMinute: number;
  maxConcurrency: number;
  latencyMs: number;
  /** PROVIDER_FREE_SHARE. */
  freeShare: number;
  /** The paid customers' start after the crowd's, ms. */
  paidAfterMs: number;
  /** The first free POST → the last free completion, ms. */
  freeMakespanMs: number;
  /** Each paid set's POST → its completedAt, ms. */
  paidCompletionMs: number[];
  /** max(120 s, 0.35 × freeMakespanMs), ms. */
  boundMs: number;
  customers: PaidFirstCustomer[];
  throttled: number;
}

interface View {
  status: string;
  completedAt: string | null;
  headshots: unknown[];
  creditsRefunded: number;
}

/** A purchase item of the pack as fulfilment writes it (docs/architecture.md §2): what the standing is read from. */
async function bought(sub: string, packId: 'starter'): Promise<void> {
  const pack = findPack(packId)!;
  await documentClient().send(
    new PutCommand({
      TableName: storageSettings().TABLE_NAME,
      Item: {
        PK: userPk(sub),
        SK: purchaseSk(`cs_bench_${sub}`),
        type: 'purchase',
        packId,
        credits: pack.credits,
        amountTotal: pack.priceCents,
        currency: 'usd',
        status: 'completed',
        creditsReversed: 0,
      },
    }),
  );
}

/** POST /api/generations: the id, or the refusal's status (a 429 up front). */
async function start(
  stack: BenchStack,
  token: string,
  keys: string[],
): Promise<{ id?: string; status: number }> {
  const res = await fetch(`${stack.gatewayUrl}/api/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ style: 'professional', background: 'studio', referenceKeys: keys }),
  });
  const body = (await res.json()) as { id?: string };
  if (res.status !== 202 && res.status !== 429)
    throw new Error(`start → ${res.status}: ${JSON.stringify(body)}`);
  return res.status === 202 ? { id: body.id!, status: 202 } : { status: 429 };
}

async function get<T>(stack: BenchStack, token: string, path: string): Promise<T> {
  const res = await fetch(`${stack.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}`);
  return (await res.json()) as T;
}

/** Polls a generation to its end (every 3 s; completion times come from completedAt). */
async function finished(stack: BenchStack, token: string, id: string): Promise<View> {
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const view = await get<View>(stack, token, `/api/generations/${id}`);
    if (['succeeded', 'partial', 'failed'].includes(view.status)) return view;
    if (Date.now() > deadline) throw new Error(`generation ${id} still ${view.status} after 20 min`);
    await sleep(3_000);
  }
}

/**
 * Runs the scenario once: `freeAccounts` sign-up-credit accounts start together, `paidAfterMs` later `paidCustomers`
 * Starter-pack buyers start, against the stand-in allowing `imagesPerMinute` at `latencyMs` per image.
 */
export async function benchPaidFirst(
  stack: BenchStack,
  options = {
    freeAccounts: 20,
    paidCustomers: 3,
    imagesPerMinute: 30,
    maxConcurrency: 10,
    latencyMs: 1_000,
    paidAfterMs: 10_000,
  },
): Promise<PaidFirstFigures> {
  return withFakeProvider(options, async (fake) => {
    const freeShare = Number(process.env.PROVIDER_FREE_SHARE ?? 0.25);
    const setUp = async (lane: 'free' | 'paid') => {
      const user = await signedUpUser(stack);
      const keys = await uploadFixtures(stack, user.idToken, ['obama.jpg', 'obama-720p.jpg']);
      if (lane === 'paid') await bought(user.sub, 'starter');
      return { lane, user, keys };
    };
    const people: Awaited<ReturnType<typeof setUp>>[] = [];
    for (let i = 0; i < options.freeAccounts; i++) people.push(await setUp('free'));
    for (let i = 0; i < options.paidCustomers; i++) people.push(await setUp('paid'));
    const began = Date.now();
    const run = async (person: (typeof people)[number], at: number): Promise<PaidFirstCustomer> => {
      await sleep(Math.max(0, began + at - Date.now()));
      const startedAt = Date.now();
      const { id } = await start(stack, person.user.idToken, person.keys);
      if (!id) {
        const me = await get<{ credits: number }>(stack, person.user.idToken, '/api/me');
        return {
          lane: person.lane,
          refused: true,
          creditsAfterRefusal: me.credits,
          delivered: 0,
          refunded: 0,
        };
      }
      const view = await finished(stack, person.user.idToken, id);
      return {
        lane: person.lane,
        refused: false,
        status: view.status,
        delivered: view.headshots.length,
        refunded: view.creditsRefunded,
        completionMs: Date.parse(view.completedAt ?? new Date().toISOString()) - startedAt,
      };
    };
    const customers = await Promise.all(
      people.map((p) => run(p, p.lane === 'paid' ? options.paidAfterMs : 0)),
    );
    const free = customers.filter((c) => c.lane === 'free' && c.completionMs !== undefined);
    const freeMakespanMs = Math.max(0, ...free.map((c) => c.completionMs!));
    const figures: PaidFirstFigures = {
      ...options,
      freeShare,
      freeMakespanMs,
      paidCompletionMs: customers.filter((c) => c.lane === 'paid').map((c) => c.completionMs ?? Number.NaN),
      boundMs: Math.max(120_000, 0.35 * freeMakespanMs),
      customers,
      throttled: fake.stats.throttled,
    };
    console.log(
      `paid first: free makespan ${(freeMakespanMs / 1000).toFixed(0)} s, paid sets ${figures.paidCompletionMs
        .map((ms) => (ms / 1000).toFixed(0))
        .join(', ')} s (bound ${(figures.boundMs / 1000).toFixed(0)} s); delivered ${customers
        .map((c) => (c.refused ? 'refused' : c.delivered))
        .join(' ')}; 429s ${fake.stats.throttled}`,
    );
    return figures;
  });
}
