import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { resetConfigForTests } from '../../functions/config/settings';
import { startFakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';
import { configureHandlers } from '../helpers/handler-config';

/** The provider's limits a bench row runs the handlers under. */
export interface FakeProviderOptions {
  /** The fake's rate limit, images a minute; also the handlers' `PROVIDER_IMAGES_PER_MINUTE`. */
  imagesPerMinute: number;
  /** The handlers' `PROVIDER_MAX_CONCURRENCY`. */
  maxConcurrency: number;
  /** How long the fake takes per image, ms. */
  latencyMs: number;
}

type FakeOpenAi = Awaited<ReturnType<typeof startFakeOpenAi>>;

/**
 * Runs `row` with the handlers in this process generating through a fake OpenAI that answers 429 above
 * `imagesPerMinute` (bursts of a second's worth), and the provider queue held to the same limits; afterwards the
 * environment is as it was and the fake is closed, however `row` ended.
 */
export async function withFakeProvider<T>(
  options: FakeProviderOptions,
  row: (fake: FakeOpenAi) => Promise<T>,
): Promise<T> {
  const fake = await startFakeOpenAi({
    rateLimit: {
      limit: options.imagesPerMinute,
      burst: Math.max(1, Math.ceil(options.imagesPerMinute / 60)),
    },
    latencyMs: options.latencyMs,
  });
  const env = {
    IMAGE_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: fake.baseURL,
    PROVIDER_IMAGES_PER_MINUTE: String(options.imagesPerMinute),
    PROVIDER_MAX_CONCURRENCY: String(options.maxConcurrency),
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  try {
    configureHandlers(env);
    return await row(fake);
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
