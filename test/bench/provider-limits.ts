import { setTimeout as sleep } from 'node:timers/promises';
import { getGeneration } from '../../functions/adapters/generations';
import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { resetConfigForTests } from '../../functions/config/settings';
import { startFakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';
import { apiJson, signedUpUser, startGeneration, uploadFixtures, type BenchStack } from './http';
import { configureHandlers } from '../helpers/handler-config';

/** "Generation under provider limits": N generations of 6 started together against the rate-limited stand-in. */
export interface ProviderLimitFigures {
  generations: number;
  /** The stand-in's limit and PROVIDER_IMAGES_PER_MINUTE (C). */
  imagesPerMinute: number;
  /** PROVIDER_MAX_CONCURRENCY. */
  maxConcurrency: number;
  /** The stand-in's latency per image, ms. */
  latencyMs: number;
  delivered: number;
  total: number;
  /** Credits refunded over all generations. */
  refunds: number;
  /** 429 answers of the stand-in. */
  throttled: number;
  /** First POST → the last generation's completedAt, ms. */
  makespanMs: number;
  /** The first admission of any slot → the last completedAt, ms (photo preparation before the line excluded). */
  admittedMakespanMs: number;
  /** N·6/C minutes + latency, ms: every image sent the moment the limit allows it. */
  idealMs: number;
  statuses: string[];
}

interface View {
  status: string;
  completedAt: string | null;
  headshots: unknown[];
  creditsRefunded: number;
}

/**
 * Retries a request that failed at the socket (ECONNRESET): ten generations' handlers share this process with the
 * gateway, and a busy event loop can let a keep-alive connection expire under a request.
 */
async function retrying<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 5 || !(error instanceof TypeError)) throw error;
      await sleep(500 * attempt);
    }
  }
}

/**
 * Starts `generations` generations at once through the local stack with the `openai` provider pointed at the
 * stand-in, which allows `imagesPerMinute` (quantized per second, as OpenAI documents) and answers each image after
 * `latencyMs`; the admission point gets the same limit. Reads the outcome from the API and the stand-in's counters.
 * The handlers' provider settings are restored afterwards.
 */
export async function benchProviderLimits(
  stack: BenchStack,
  options: { generations: number; imagesPerMinute: number; maxConcurrency: number; latencyMs: number },
): Promise<ProviderLimitFigures> {
  const fake = await startFakeOpenAi({
    rateLimit: {
      limit: options.imagesPerMinute,
      burst: Math.max(1, Math.ceil(options.imagesPerMinute / 60)),
    },
    latencyMs: options.latencyMs,
  });
  const saved = Object.fromEntries(
    [
      'IMAGE_PROVIDER',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'PROVIDER_IMAGES_PER_MINUTE',
      'PROVIDER_MAX_CONCURRENCY',
    ].map((k) => [k, process.env[k]]),
  );
  try {
    configureHandlers({
      IMAGE_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: fake.baseURL,
      PROVIDER_IMAGES_PER_MINUTE: String(options.imagesPerMinute),
      PROVIDER_MAX_CONCURRENCY: String(options.maxConcurrency),
    });
    // Customers are set up one after the other (sign-up and presigned uploads are not what this row measures).
    const customers: { user: Awaited<ReturnType<typeof signedUpUser>>; keys: string[] }[] = [];
    for (let i = 0; i < options.generations; i++) {
      const user = await retrying(() => signedUpUser(stack));
      customers.push({
        user,
        keys: await retrying(() => uploadFixtures(stack, user.idToken, ['obama.jpg', 'obama-720p.jpg'])),
      });
    }
    const started = Date.now();
    const ids = await Promise.all(
      customers.map(({ user, keys }) => startGeneration(stack, user.idToken, keys)),
    );
    const views = await Promise.all(
      customers.map(async ({ user }, i) => {
        const deadline = Date.now() + 15 * 60_000;
        for (;;) {
          const view = await retrying(() =>
            apiJson<View>(stack, user.idToken, 'GET', `/api/generations/${ids[i]}`),
          );
          if (['succeeded', 'partial', 'failed'].includes(view.status)) return view;
          if (Date.now() > deadline)
            throw new Error(`generation ${ids[i]} still ${view.status} after 15 min`);
          await sleep(1_000);
        }
      }),
    );
    const ended = Math.max(...views.map((v) => Date.parse(v.completedAt ?? new Date().toISOString())));
    const admitted = await Promise.all(customers.map(({ user }, i) => getGeneration(user.sub, ids[i]!)));
    const firstAdmitted = Math.min(
      ...admitted.map((g) => Date.parse(g?.admittedAt ?? new Date().toISOString())),
    );
    return {
      ...options,
      delivered: views.reduce((n, v) => n + v.headshots.length, 0),
      total: options.generations * 6,
      refunds: views.reduce((n, v) => n + v.creditsRefunded, 0),
      throttled: fake.stats.throttled,
      makespanMs: ended - started,
      admittedMakespanMs: ended - firstAdmitted,
      idealMs: ((options.generations * 6) / options.imagesPerMinute) * 60_000 + options.latencyMs,
      statuses: views.map((v) => v.status),
    };
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetConfigForTests();
    resetImageProviderForTests();
    await fake.close();
  }
}
