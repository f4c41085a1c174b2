import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HeadshotRequest } from '../../functions/adapters/image-providers/types';

/*
 * Loud, not silent, in the cloud: which image provider a configuration gets, and what a slot meets when the cloud's
 * `openai` provider has no key (a named error that fails the slot, and the `ProviderMisconfigured` metric).
 */

const VARIABLES = [
  'STAGE',
  'AWS_LAMBDA_FUNCTION_NAME',
  'IMAGE_PROVIDER',
  'OPENAI_API_KEY',
  'POWERTOOLS_METRICS_DISABLED',
];

const request: HeadshotRequest = {
  prompt: 'a headshot',
  references: [],
  style: 'professional',
  background: 'studio',
  slot: 2,
  generationId: 'gen-1',
};

describe('imageProvider()', () => {
  beforeEach(() => {
    vi.resetModules();
    for (const name of VARIABLES) vi.stubEnv(name, undefined);
    vi.stubEnv('TABLE_NAME', 't');
    vi.stubEnv('UPLOADS_BUCKET', 'u');
    vi.stubEnv('RESULTS_BUCKET', 'r');
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('in the cloud without a key: every slot fails with ProviderMisconfiguredError and counts the metric', async () => {
    process.env.STAGE = 'dev';
    process.env.OPENAI_API_KEY = 'REPLACE_ME';
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const { imageProvider, ProviderMisconfiguredError } =
      await import('../../functions/adapters/image-providers');
    const provider = imageProvider();
    expect(provider.name).toBe('openai');
    const error = await provider.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderMisconfiguredError);
    expect((error as Error).name).toBe('ProviderMisconfiguredError');
    expect((error as Error).message).toMatch(/OPENAI_API_KEY/);
    const metric = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => '_aws' in l && 'ProviderMisconfigured' in l);
    expect(metric).toMatchObject({ ProviderMisconfigured: 1, service: 'headshot-studio' });
  });

  it('makes the real openai provider once the key arrives (a secret re-read after its TTL)', async () => {
    process.env.STAGE = 'dev';
    const { imageProvider } = await import('../../functions/adapters/image-providers');
    const { secretsChanged } = await import('../../functions/common/secret-values');
    const misconfigured = imageProvider();
    expect(imageProvider()).toBe(misconfigured);
    process.env.OPENAI_API_KEY = 'sk-test';
    secretsChanged();
    const real = imageProvider();
    expect(real).not.toBe(misconfigured);
    expect(real.name).toBe('openai');
  });

  it('uses the offline provider locally without a key, or when asked for it outside prod', async () => {
    const { imageProvider, resetImageProviderForTests } =
      await import('../../functions/adapters/image-providers');
    const { resetConfigForTests } = await import('../../functions/config/settings');
    expect(imageProvider().name).toBe('local');
    Object.assign(process.env, { STAGE: 'staging', IMAGE_PROVIDER: 'local' });
    resetConfigForTests();
    resetImageProviderForTests();
    expect(imageProvider().name).toBe('local');
    process.env.STAGE = 'prod';
    resetConfigForTests();
    expect(() => imageProvider()).toThrow(/IMAGE_PROVIDER: local .*refused in production/);
  });
});
