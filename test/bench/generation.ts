import { setTimeout as sleep } from 'node:timers/promises';
import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { resetConfigForTests } from '../../functions/config';
import { apiJson, signedUpUser, uploadFixtures, type BenchStack } from './http';

/** One generation of 6 headshots with the `local` provider at a fixed latency, measured from the server's clocks. */
export interface GenerationFigures {
  /** `GENERATION_MAX_CONCURRENCY`: the Map's MaxConcurrency. */
  maxConcurrency: number;
  /** `LOCAL_PROVIDER_LATENCY_MS`: the fixed wait of every provider call (L). */
  latencyMs: number;
  /** Generation `createdAt` → the earliest headshot's `createdAt` (saved in DynamoDB), ms. */
  firstSavedMs: number;
  /** Generation `createdAt` → the latest headshot's `createdAt`, ms. */
  allSavedMs: number;
  /** Generation `createdAt` → `completedAt` (Finalize done), ms. */
  completedMs: number;
  status: string;
  headshots: number;
}

interface GenerationView {
  status: string;
  createdAt: string;
  completedAt: string | null;
  headshots: { createdAt: string }[];
}

/**
 * Sets the handlers' configuration for the next cold start: config is parsed once per process, so the cached copy
 * (and the image provider built from it) are dropped and the next handler call reads `process.env` again.
 */
function configure(env: Record<string, string>): void {
  Object.assign(process.env, env);
  resetConfigForTests();
  resetImageProviderForTests();
}

/**
 * Runs one real generation through the local stack (presigned uploads of 3 fixture photos, `POST /api/generations`,
 * the ASL on the local Step Functions runner, the `local` provider sleeping `latencyMs` per headshot) and reads the
 * timings the server recorded: every figure is a difference of server timestamps, so the polling interval does not
 * blur it.
 */
export async function benchGeneration(
  stack: BenchStack,
  options: { latencyMs: number; maxConcurrency: number },
): Promise<GenerationFigures> {
  configure({
    LOCAL_PROVIDER_LATENCY_MS: String(options.latencyMs),
    GENERATION_MAX_CONCURRENCY: String(options.maxConcurrency),
  });
  const user = await signedUpUser(stack);
  const keys = await uploadFixtures(stack, user.idToken, ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg']);
  const { id } = await apiJson<{ id: string }>(
    stack,
    user.idToken,
    'POST',
    '/api/generations',
    { style: 'professional', background: 'studio', referenceKeys: keys },
    [202],
  );
  const deadline = Date.now() + 120_000;
  let view: GenerationView;
  for (;;) {
    view = await apiJson<GenerationView>(stack, user.idToken, 'GET', `/api/generations/${id}`);
    if (['succeeded', 'partial', 'failed'].includes(view.status)) break;
    if (Date.now() > deadline) throw new Error(`generation ${id} still ${view.status} after 120 s`);
    await sleep(250);
  }
  const created = Date.parse(view.createdAt);
  const saved = view.headshots.map((h) => Date.parse(h.createdAt) - created);
  return {
    maxConcurrency: options.maxConcurrency,
    latencyMs: options.latencyMs,
    firstSavedMs: saved.length ? Math.min(...saved) : Number.NaN,
    allSavedMs: saved.length === 6 ? Math.max(...saved) : Number.NaN,
    completedMs: view.completedAt ? Date.parse(view.completedAt) - created : Number.NaN,
    status: view.status,
    headshots: saved.length,
  };
}
