import { loadConfig } from '../../config';
import { createLocalProvider } from './local';
import { createOpenAiProvider } from './openai';
import type { ImageProvider } from './types';

export * from './types';

let provider: ImageProvider | undefined;

/**
 * The configured image provider, created once per execution environment (docs/architecture.md §4): `openai` when
 * IMAGE_PROVIDER says so (the default when OPENAI_API_KEY is set), else the offline `local` one.
 */
export function imageProvider(): ImageProvider {
  if (!provider) {
    const config = loadConfig();
    provider =
      config.IMAGE_PROVIDER === 'openai'
        ? createOpenAiProvider({
            // config.ts refuses IMAGE_PROVIDER=openai without a key, so it is set here.
            apiKey: config.OPENAI_API_KEY ?? '',
            baseURL: config.OPENAI_BASE_URL,
            model: config.OPENAI_IMAGE_MODEL,
          })
        : createLocalProvider({ latencyMs: config.LOCAL_PROVIDER_LATENCY_MS });
  }
  return provider;
}

/** Forgets the provider. Tests only (after resetConfigForTests). */
export function resetImageProviderForTests(): void {
  provider = undefined;
}

/**
 * Makes `replacement` this process's provider until the next {@link resetImageProviderForTests}. Benchmarks and
 * tests only: `npm run bench` measures the workflow's own overhead with a provider of fixed latency and no CPU.
 */
export function useImageProviderForTests(replacement: ImageProvider): void {
  provider = replacement;
}
