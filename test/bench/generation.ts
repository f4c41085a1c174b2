import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { useImageProviderForTests, type ImageProvider } from '../../functions/adapters/image-providers';
import { createLocalProvider } from '../../functions/adapters/image-providers/local';
import { normalizePhoto } from '../../functions/adapters/images';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { HEADSHOT_SIDE } from '../../functions/domain/headshot-images';
import { documentClient } from '../../functions/adapters/support/aws';
import { generationSk, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import {
  FIXTURE_PHOTOS_DIR,
  apiJson,
  signedUpUser,
  startGeneration,
  uploadFixtures,
  type BenchStack,
} from './http';
import { median } from './stats';
import { configureHandlers } from '../helpers/handler-config';

/** One generation of 6 headshots with the `local` provider at a fixed latency, measured from the server's clocks. */
export interface GenerationFigures {
  /** `local`: the offline renderer (its image CPU included); `fixed`: {@link fixedLatencyProvider} (none). */
  provider: 'local' | 'fixed';
  /** `GENERATION_MAX_CONCURRENCY`: the Map's MaxConcurrency. */
  maxConcurrency: number;
  /** `LOCAL_PROVIDER_LATENCY_MS`: the fixed wait of every provider call (L). */
  latencyMs: number;
  /** Generation `createdAt` → the earliest headshot's `createdAt` (saved in DynamoDB), ms. */
  firstSavedMs: number;
  /** Generation `createdAt` → the latest headshot's `createdAt`, ms. */
  allSavedMs: number;
  /**
   * Generation `createdAt` → `admittedAt` (its first provider call admitted), ms: everything before the provider —
   * the photo checks and reference crops of PrepareReferences, the prompt, the admission point.
   */
  admittedMs: number;
  /** Generation `createdAt` → `completedAt` (Finalize done), ms. */
  completedMs: number;
  status: string;
  headshots: number;
  /** The generation and its owner (to read its item afterwards). */
  id?: string;
  sub?: string;
  /** When these figures are the medians of several generations ({@link medianGeneration}): each run's own. */
  samples?: GenerationSample[];
}

/** One generation's timings, as kept beside the medians of several. */
export interface GenerationSample {
  firstSavedMs: number;
  allSavedMs: number;
  admittedMs: number;
}

/**
 * Several generations of the same settings as one set of figures: each timing is the median of the runs (one
 * generation's "first" moves by a few hundred ms with what else the machine does), every run kept in `samples`;
 * the status and headshot count are the worst run's.
 *
 * @throws {Error} when `runs` is empty
 */
export function medianGeneration(runs: readonly GenerationFigures[]): GenerationFigures {
  const first = runs[0];
  if (!first) throw new Error('medianGeneration needs at least one run');
  const of = (pick: (g: GenerationFigures) => number) => median(runs.map(pick));
  const failed = runs.find((g) => g.status !== 'succeeded');
  return {
    provider: first.provider,
    maxConcurrency: first.maxConcurrency,
    latencyMs: first.latencyMs,
    firstSavedMs: of((g) => g.firstSavedMs),
    allSavedMs: of((g) => g.allSavedMs),
    admittedMs: of((g) => g.admittedMs),
    completedMs: of((g) => g.completedMs),
    status: failed?.status ?? 'succeeded',
    headshots: Math.min(...runs.map((g) => g.headshots)),
    samples: runs.map(({ firstSavedMs, allSavedMs, admittedMs }) => ({
      firstSavedMs,
      allSavedMs,
      admittedMs,
    })),
  };
}

interface GenerationView {
  status: string;
  createdAt: string;
  completedAt: string | null;
  headshots: { createdAt: string }[];
}

/**
 * Runs one real generation through the local stack (presigned uploads of 3 fixture photos, their photo check
 * `POST /api/photo-checks` as the wizard makes it before the customer goes on, `POST /api/generations`,
 * the ASL on the local Step Functions runner, the `local` provider sleeping `latencyMs` per headshot) and reads the
 * timings the server recorded: every figure is a difference of server timestamps, so the polling interval does not
 * blur it.
 */
export async function benchGeneration(
  stack: BenchStack,
  options: { latencyMs: number; maxConcurrency: number; provider?: 'local' | 'fixed' },
): Promise<GenerationFigures> {
  const provider = options.provider ?? 'local';
  configureHandlers({
    LOCAL_PROVIDER_LATENCY_MS: String(options.latencyMs),
    GENERATION_MAX_CONCURRENCY: String(options.maxConcurrency),
  });
  if (provider === 'fixed') useImageProviderForTests(fixedLatencyProvider(options.latencyMs));
  const user = await signedUpUser(stack);
  const keys = await uploadFixtures(stack, user.idToken, ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg']);
  // As the wizard does while the customer picks a style: the photos are checked once they are uploaded.
  await apiJson(stack, user.idToken, 'POST', '/api/photo-checks', { keys });
  const id = await startGeneration(stack, user.idToken, keys);
  const deadline = Date.now() + 120_000;
  let view: GenerationView;
  for (;;) {
    view = await apiJson<GenerationView>(stack, user.idToken, 'GET', `/api/generations/${id}`);
    if (['succeeded', 'partial', 'failed'].includes(view.status)) break;
    if (Date.now() > deadline) throw new Error(`generation ${id} still ${view.status} after 120 s`);
    await sleep(250);
  }
  const created = Date.parse(view.createdAt);
  // `admittedAt` is not part of the API's view: read it from the generation item, as the workflow wrote it.
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: storageSettings().TABLE_NAME,
      Key: { PK: userPk(user.sub), SK: generationSk(id) },
      ProjectionExpression: 'admittedAt',
    }),
  );
  const saved = view.headshots.map((h) => Date.parse(h.createdAt) - created);
  return {
    provider,
    maxConcurrency: options.maxConcurrency,
    latencyMs: options.latencyMs,
    firstSavedMs: saved.length ? Math.min(...saved) : Number.NaN,
    allSavedMs: saved.length === 6 ? Math.max(...saved) : Number.NaN,
    admittedMs: typeof Item?.admittedAt === 'string' ? Date.parse(Item.admittedAt) - created : Number.NaN,
    completedMs: view.completedAt ? Date.parse(view.completedAt) - created : Number.NaN,
    status: view.status,
    headshots: saved.length,
    id,
    sub: user.sub,
  };
}

/** The fixed-latency provider's answers, by reference hash: framed once per process. */
const answers = new Map<string, Promise<Buffer>>();

/**
 * A provider of fixed latency and (almost) no CPU: it waits `latencyMs`, then answers as the `openai` provider asks
 * OpenAI to (`size: '1024x1024'`, `output_format: 'jpeg'`): a 1024×1024 JPEG, here of the best reference photo it was
 * sent (the customer, so the likeness check passes as it would for a real headshot). Each reference is framed once
 * per process, while the first call waits, and kept by its bytes' hash: from then on the provider spends no CPU. What
 * a generation then takes beyond `latencyMs` is the workflow's own overhead.
 */
export function fixedLatencyProvider(latencyMs: number): ImageProvider {
  return {
    name: 'fixed-latency (bench)',
    async generate(request) {
      const waited = sleep(latencyMs);
      const reference = request.references[0]!;
      const key = createHash('sha256').update(reference).digest('hex');
      let answer = answers.get(key);
      if (!answer) {
        answer = sharp(reference)
          .resize(HEADSHOT_SIDE, HEADSHOT_SIDE, { fit: 'cover' })
          .jpeg({ quality: 90 })
          .toBuffer();
        answers.set(key, answer);
      }
      await waited;
      return answer;
    },
  };
}

/** The offline `local` renderer's own time per headshot (no added latency), in this process. */
export interface RendererFigures {
  /** Headshots rendered, one after the other. */
  runs: number;
  /** Median wall time of one `generate` call, ms. */
  medianMs: number;
  /** Slowest call, ms (the first one includes locating the face in the references). */
  maxMs: number;
}

/**
 * Times the `local` provider alone: 3 fixture photos normalized as PrepareReferences does, then `runs` headshots
 * rendered one after the other (slots 0-5 cycling), each timed.
 */
export async function benchRenderer(runs = 6): Promise<RendererFigures> {
  const references = await Promise.all(
    ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg'].map(
      async (name) => (await normalizePhoto(readFileSync(`${FIXTURE_PHOTOS_DIR}${name}`))).jpeg,
    ),
  );
  const renderer = createLocalProvider({ latencyMs: 0 });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await renderer.generate({
      prompt: 'bench',
      references,
      style: 'professional',
      background: 'studio',
      slot: i % 6,
      generationId: 'bench',
    });
    times.push(performance.now() - started);
  }
  return { runs, medianMs: median(times), maxMs: Math.max(...times) };
}
