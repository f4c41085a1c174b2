import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { normalizePhoto } from '../functions/adapters/images';
import { createOpenAiProvider, planCall, planEdit } from '../functions/adapters/image-providers/openai';
import { createModelCalendar, ProviderModelNotFoundError } from '../functions/adapters/provider-calendar';
import { daysUntil } from '../functions/domain/provider-calendar';
import { parseImageProviderSettings } from '../functions/config/image-provider';
import { estimatedEditUsd, lowestQuality, openAiImageModel } from '../functions/domain/openai-image-models';
import { canvasSize, megapixelFactor, takesHighResolution } from '../functions/domain/headshot-variants';
import { partialImagesUsd } from '../functions/domain/openai-image-purposes';
import { buildPrompt } from '../functions/domain/prompts';
import { REPO_ROOT } from './constructs/naming';

/*
 * `npm run check:provider`: one real edit with the configured OpenAI model before the first deploy
 * (docs/deploy.md, "Check the image provider"). With OPENAI_API_KEY set it sends ONE low-quality edit of a fixture photo through the
 * product's own adapter and parameters (the model's lowest quality tier instead of the configured one, so the check
 * costs about a cent), prints the estimated cost and PASS with the call's latency (ms) and OpenAI's `usage`, or FAIL
 * with OpenAI's own error body (exit 1); before it, the model's `shutdown_date` (`GET /v1/models/{model}`, or "none
 * announced"). Without a key it prints what it would send and exits 0. Reads OPENAI_API_KEY, OPENAI_BASE_URL (another endpoint, e.g. the
 * local stand-in) and OPENAI_IMAGE_MODEL from the environment; asks nothing (CI=true, no stdin).
 */

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'photos', 'obama.jpg');

/**
 * `fetch` that keeps the body of the last error answer (OpenAI's own words for the FAIL line) and the `usage` of the
 * last edit OpenAI answered (`ImagesResponse.usage`: input, output and total tokens).
 */
function recordingFetch(): {
  fetch: typeof fetch;
  lastError: () => string | undefined;
  lastUsage: () => unknown;
} {
  let lastError: string | undefined;
  let lastUsage: unknown;
  return {
    lastError: () => lastError,
    lastUsage: () => lastUsage,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.status >= 400) lastError = await response.clone().text();
      else if (String(input instanceof Request ? input.url : input).endsWith('/images/edits')) {
        lastUsage = ((await response.clone().json()) as { usage?: unknown }).usage;
      }
      return response;
    },
  };
}

/** The `Shutdown:` line: the model's `shutdown_date` as OpenAI's `GET /v1/models/{model}` answers it. */
async function shutdownLine(options: {
  apiKey: string;
  baseURL?: string;
  model: string;
  fetch: typeof fetch;
}): Promise<string> {
  try {
    const calendar = createModelCalendar({
      ...options,
      clientOptions: { fetch: options.fetch, maxRetries: 0 },
    });
    const { shutdownDate } = await calendar.retrieve(options.model);
    if (!shutdownDate) return 'none announced';
    const days = daysUntil(shutdownDate, new Date());
    return `${shutdownDate} (${days} days from today: change OPENAI_IMAGE_MODEL before then)`;
  } catch (error) {
    if (error instanceof ProviderModelNotFoundError)
      return `not served (404 model_not_found): ${error.message}`;
    return `unknown (${error instanceof Error ? error.message : String(error)})`;
  }
}

const usd = (value: number | undefined) =>
  value === undefined ? 'unknown (model not in the table)' : `$${value.toFixed(3)}`;

/**
 * Prints what an edit and an upscale would send and cost (docs/decisions/025-openai-parameters.md): the parameters per
 * use, the output priced by its pixels, the headshot as the one input image, and the partial images' output tokens.
 */
function printUseCosts(modelId: string, configured: Parameters<typeof planCall>[1]): void {
  const model = openAiImageModel(modelId);
  for (const purpose of ['edit', 'upscale'] as const) {
    const { params } = planCall(modelId, configured, {
      purpose,
      resolution: 'standard',
      request: purpose === 'upscale' ? { kind: 'upscale' } : { kind: 'outfit', outfit: 'blazer' },
      takesPartialImages: true,
    });
    const [width, height] = params.size.split('x').map(Number) as [number, number];
    const output = estimatedEditUsd(
      model,
      params.quality ?? configured,
      1,
      megapixelFactor({ width, height }),
    );
    const partials = partialImagesUsd(params.partial_images ?? 0);
    console.log(
      `Estimated cost of one ${purpose} (${JSON.stringify(params)}): ${usd(output === undefined ? undefined : output + partials)}`,
    );
  }
}

async function main(): Promise<number> {
  const settings = parseImageProviderSettings({ ...process.env, IMAGE_PROVIDER: 'openai' });
  const model = openAiImageModel(settings.OPENAI_IMAGE_MODEL);
  const quality = lowestQuality(model);
  const reference = (await normalizePhoto(readFileSync(FIXTURE))).jpeg;
  const plan = planEdit(settings.OPENAI_IMAGE_MODEL, quality);
  const sent = { ...plan.params, prompt: buildPrompt({ style: 'professional', background: 'studio' }) };
  // The output is the portrait canvas (domain/headshot-variants.ts), priced by its pixels.
  const scale = megapixelFactor(canvasSize(model, 'standard'));
  const cost = estimatedEditUsd(model, quality, 1, scale);
  console.log(
    `Model:      ${settings.OPENAI_IMAGE_MODEL}${model ? '' : ' (not in the model table: only universal parameters are sent)'}`,
  );
  console.log(`Endpoint:   ${settings.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'} POST /images/edits`);
  console.log(`Parameters: ${JSON.stringify(plan.params)}`);
  console.log(
    `Images:     1 (image[]: reference-1.jpg, image/jpeg, ${reference.length} bytes, test/fixtures/photos/obama.jpg normalized)`,
  );
  console.log(`Prompt:     ${sent.prompt.length} characters`);
  console.log(`Estimated cost of this check: ${usd(cost)} (${quality}, 1 reference image)`);
  const configured = estimatedEditUsd(model, settings.OPENAI_IMAGE_QUALITY, 3, scale);
  console.log(
    `Estimated cost of one generation (6 × ${settings.OPENAI_IMAGE_QUALITY}, 3 references): ${usd(configured === undefined ? undefined : configured * 6)}`,
  );
  if (takesHighResolution(model)) {
    const high = estimatedEditUsd(
      model,
      settings.OPENAI_IMAGE_QUALITY,
      3,
      megapixelFactor(canvasSize(model, 'high')),
    );
    console.log(
      `Estimated cost of one high-resolution generation (${planEdit(settings.OPENAI_IMAGE_MODEL, quality, 'high').params.size}): ${usd(high === undefined ? undefined : high * 6)}`,
    );
  }
  printUseCosts(settings.OPENAI_IMAGE_MODEL, settings.OPENAI_IMAGE_QUALITY);
  if (!settings.OPENAI_API_KEY) {
    console.log('Shutdown:   not checked (GET /v1/models needs a key)');
    console.log('No OPENAI_API_KEY: nothing sent. Set it to send this one edit.');
    return 0;
  }
  const recorder = recordingFetch();
  const shutdown = await shutdownLine({
    apiKey: settings.OPENAI_API_KEY,
    baseURL: settings.OPENAI_BASE_URL,
    model: settings.OPENAI_IMAGE_MODEL,
    fetch: recorder.fetch,
  });
  console.log(`Shutdown:   ${shutdown}`);
  const provider = createOpenAiProvider({
    apiKey: settings.OPENAI_API_KEY,
    baseURL: settings.OPENAI_BASE_URL,
    model: settings.OPENAI_IMAGE_MODEL,
    quality,
    ...(settings.OPENAI_TIMEOUT_SECONDS ? { timeoutMs: settings.OPENAI_TIMEOUT_SECONDS * 1000 } : {}),
    clientOptions: { fetch: recorder.fetch },
  });
  const started = Date.now();
  try {
    const image = await provider.generate({
      prompt: sent.prompt,
      references: [reference],
      style: 'professional',
      background: 'studio',
      slot: 0,
      generationId: 'check-provider',
    });
    const latencyMs = Date.now() - started;
    const meta = await sharp(image).metadata();
    console.log(`Latency:    ${latencyMs} ms`);
    console.log(`Usage:      ${JSON.stringify(recorder.lastUsage() ?? null)}`);
    console.log(
      `PASS: ${meta.format} ${meta.width}×${meta.height}, ${image.length} bytes in ${(latencyMs / 1000).toFixed(1)} s (estimated ${usd(cost)})`,
    );
    return 0;
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    console.log(`FAIL: ${name} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(recorder.lastError() ?? (error instanceof Error ? error.message : String(error)));
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
