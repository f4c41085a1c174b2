import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';

/*
 * `npm run check:provider` against the strict OpenAI stand-in (OPENAI_BASE_URL): the pass case sends exactly one
 * low-quality edit with the product's parameters; the fail case prints OpenAI's own error body and exits non-zero;
 * without a key it sends nothing and says what it would send. As CI runs it: CI=true, no stdin.
 */

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

/** Runs the script (asynchronously: the stand-in answers from this process) with `env` over a clean one. */
function checkProvider(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'infrastructure/check-provider.ts'],
      {
        env: { PATH: process.env.PATH ?? '', CI: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT', ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, out: stdout + stderr }),
    );
    child.stdin?.end();
  });
}

describe('npm run check:provider', () => {
  it('without a key: prints the model, parameters and image it would send, sends nothing, exits 0', async () => {
    const { code, out } = await checkProvider({ OPENAI_BASE_URL: fake.baseURL });
    expect(code).toBe(0);
    expect(out).toContain('Model:      gpt-image-2.6-sunburst');
    expect(out).toContain('"quality":"low"');
    expect(out).not.toContain('input_fidelity');
    expect(out).toMatch(/Images: {5}1 \(image\[\]: reference-1\.jpg, image\/jpeg, \d+ bytes/);
    expect(out).toMatch(/Estimated cost of this check: \$0\.\d{3}/);
    expect(out).toContain('No OPENAI_API_KEY: nothing sent');
    // An edit at 1024x1280 high with 2 partials, an upscale at 2560x3200 (decision 025).
    expect(out).toMatch(
      /Estimated cost of one edit \(.*"complexity":"low".*"partial_images":2.*\): \$0\.084/,
    );
    expect(out).toMatch(/Estimated cost of one upscale \(.*"size":"2560x3200".*\): \$0\.452/);
    expect(out).toContain('Shutdown:   not checked');
    expect(fake.calls).toHaveLength(0);
    expect(fake.modelReads).toHaveLength(0);
  }, 60_000);

  it('with a key: one low-quality edit through the adapter, PASS and exit 0', async () => {
    const { code, out } = await checkProvider({
      OPENAI_API_KEY: 'sk-test-check',
      OPENAI_BASE_URL: fake.baseURL,
    });
    expect(out).toMatch(/PASS: png 1024×1280/);
    expect(code).toBe(0);
    expect(out).toContain('Shutdown:   none announced');
    expect(out).toMatch(/Latency: {4}\d+ ms/);
    // The edit answer's `usage`, as OpenAI's shape names it (the stand-in's counts are inferred).
    const usage = JSON.parse(/Usage: {6}(.+)/.exec(out)![1]!) as Record<string, unknown>;
    expect(usage).toMatchObject({
      input_tokens: expect.any(Number) as number,
      input_tokens_details: { image_tokens: 1024, text_tokens: expect.any(Number) as number },
      output_tokens: 1280,
      total_tokens: expect.any(Number) as number,
    });
    expect(fake.modelReads).toEqual(['gpt-image-2.6-sunburst']);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({
      model: 'gpt-image-2.6-sunburst',
      quality: 'low',
      size: '1024x1280',
      inputFidelity: null,
    });
  }, 60_000);

  it('a model with an announced shutdown: prints its date and the days left', async () => {
    fake.shutdownDates.set('gpt-image-2.6-sunburst', '2099-12-01');
    try {
      const { code, out } = await checkProvider({
        OPENAI_API_KEY: 'sk-test-check',
        OPENAI_BASE_URL: fake.baseURL,
      });
      expect(code).toBe(0);
      expect(out).toMatch(
        /Shutdown: {3}2099-12-01 \(\d+ days from today: change OPENAI_IMAGE_MODEL before then\)/,
      );
    } finally {
      fake.shutdownDates.clear();
    }
  }, 60_000);

  it("a refused configuration: FAIL with OpenAI's own error body, exit 1", async () => {
    const { code, out } = await checkProvider({
      OPENAI_API_KEY: 'sk-test-check',
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_IMAGE_MODEL: 'gpt-image-1',
    });
    expect(code).toBe(1);
    expect(out).toContain('FAIL: ProviderMisconfiguredError');
    expect(out).toContain('"code":"model_not_found"');
    expect(out).toContain('The model `gpt-image-1` has been deprecated');
    // Its calendar entry is gone as well: the Shutdown line says so before the edit fails.
    expect(out).toContain('Shutdown:   not served (404 model_not_found)');
  }, 60_000);
});
