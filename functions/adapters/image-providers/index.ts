import { imageProviderSettings, type ImageProviderSettings } from '../../config/image-provider';
import { countMetric } from '../../common/metrics';
import { logger } from '../../common/logger';
import { createLocalProvider } from './local';
import { instrumented } from './instrumented';
import { createOpenAiProvider } from './openai';
import { ProviderMisconfiguredError, type ImageProvider } from './types';

export * from './types';

let provider: ImageProvider | undefined;
/** The configuration {@link provider} was made from: a new one (a secret arrived) makes a new provider. */
let madeFrom: ImageProviderSettings | undefined;
let replaced = false;

/**
 * The provider of an `openai` configuration without its API key: every call fails the slot with
 * {@link ProviderMisconfiguredError} (the workflow refunds it) and counts one `ProviderMisconfigured` metric, which
 * the `ProviderMisconfigured` alarm reads. Nothing is generated, nothing is charged.
 */
export function createMisconfiguredProvider(problem: string): ImageProvider {
  return {
    name: 'openai',
    generate(request) {
      countMetric('ProviderMisconfigured', 1, { model: null, param: null, code: 'missing_api_key' });
      logger.error('Image provider misconfigured: the slot fails and is refunded', {
        problem,
        generationId: request.generationId,
        slot: request.slot,
      });
      return Promise.reject(
        new ProviderMisconfiguredError(problem, {
          model: null,
          param: null,
          code: 'missing_api_key',
          status: null,
        }),
      );
    },
  };
}

/**
 * The configured image provider (docs/architecture.md §4), made once per configuration: `openai` when
 * IMAGE_PROVIDER says so (the default in the cloud, and locally when OPENAI_API_KEY is set), else the offline
 * `local` one. `openai` without a key gives {@link createMisconfiguredProvider}: loud slot failures, not a silent
 * fallback. When the key arrives later (common/secrets.ts re-reads it), the next call makes the real provider.
 */
export function imageProvider(): ImageProvider {
  const config = imageProviderSettings();
  if (provider && (replaced || madeFrom === config)) return provider;
  madeFrom = config;
  if (config.IMAGE_PROVIDER === 'local') {
    provider = createLocalProvider({
      latencyMs: config.LOCAL_PROVIDER_LATENCY_MS,
      variation: config.LOCAL_PROVIDER_VARIATION,
    });
  } else if (!config.OPENAI_API_KEY) {
    provider = createMisconfiguredProvider(
      'OPENAI_API_KEY is missing or still the placeholder: put the key into the OpenAI secret (docs/deploy.md, "Production checklist")',
    );
  } else {
    provider = createOpenAiProvider({
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      model: config.OPENAI_IMAGE_MODEL,
      quality: config.OPENAI_IMAGE_QUALITY,
      ...(config.OPENAI_TIMEOUT_SECONDS ? { timeoutMs: config.OPENAI_TIMEOUT_SECONDS * 1000 } : {}),
    });
  }
  // Measured and traced (adapters/image-providers/instrumented.ts); the misconfigured one makes no call.
  if (provider.name !== 'openai' || config.OPENAI_API_KEY) provider = instrumented(provider);
  return provider;
}

/** Forgets the provider. Tests only (after resetConfigForTests). */
export function resetImageProviderForTests(): void {
  provider = undefined;
  madeFrom = undefined;
  replaced = false;
}

/**
 * Makes `replacement` this process's provider until the next {@link resetImageProviderForTests}. Benchmarks and
 * tests only: `npm run bench` measures the workflow's own overhead with a provider of fixed latency and no CPU.
 */
export function useImageProviderForTests(replacement: ImageProvider): void {
  provider = replacement;
  replaced = true;
}
