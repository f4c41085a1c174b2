import { readFileSync } from 'node:fs';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpenAiProvider, planEdit } from '../../functions/adapters/image-providers/openai';
import type { HeadshotRequest } from '../../functions/adapters/image-providers/types';
import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  isShutDown,
  OPENAI_IMAGE_MODELS,
} from '../../functions/domain/openai-image-models';
import { startFakeOpenAi, type FakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';

/*
 * The adapter against the strict OpenAI stand-in, for every model of the table: what it sends is what the model takes
 * (a model that takes no input_fidelity FAILS here if the adapter sends one, because the stand-in answers OpenAI's
 * 400), and the stand-in refuses what OpenAI refuses, with OpenAI's bodies.
 */

const TODAY = new Date('2026-11-26T12:00:00Z');
const KEY = 'sk-test-contract';
const photo = readFileSync(new URL('../fixtures/photos/obama.jpg', import.meta.url));

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ clock: () => TODAY });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.clock = () => TODAY;
  fake.calls.length = 0;
  fake.refused.length = 0;
  vi.restoreAllMocks();
});

const request: HeadshotRequest = {
  prompt: 'A professional headshot of the person in the photos.',
  references: [photo, photo],
  style: 'professional',
  background: 'studio',
  slot: 0,
  generationId: 'contract',
};

const provider = (model: string) => createOpenAiProvider({ apiKey: KEY, baseURL: fake.baseURL, model });

describe('the adapter sends each model only what it takes', () => {
  const live = OPENAI_IMAGE_MODELS.filter((m) => !isShutDown(m, TODAY));
  it.each(live.map((m) => [m.id, m] as const))('%s: one edit delivers an image', async (_, model) => {
    const image = await provider(model.id).generate(request);
    // The portrait canvas of domain/headshot-variants.ts: 1024×1280 on the flexible grid, 1024×1536 otherwise.
    const canvas = model.sizes === 'flexible' ? [1024, 1280] : [1024, 1536];
    expect(await sharp(image).metadata()).toMatchObject({
      format: 'png',
      width: canvas[0],
      height: canvas[1],
    });
    expect(fake.refused).toEqual([]);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({
      model: model.id,
      size: `${canvas[0]}x${canvas[1]}`,
      outputFormat: 'png',
      outputCompression: null,
      quality: 'high',
      n: '1',
      inputFidelity: model.inputFidelity.includes('high') ? 'high' : null,
      authorization: `Bearer ${KEY}`,
    });
    expect(fake.calls[0]!.images).toHaveLength(2);
  });

  it("sends the caller's safety_identifier with the call (none on a generation started without one)", async () => {
    const identifier = 'f'.repeat(64);
    await provider(DEFAULT_OPENAI_IMAGE_MODEL).generate({ ...request, safetyIdentifier: identifier });
    await provider(DEFAULT_OPENAI_IMAGE_MODEL).generate(request);
    expect(fake.refused).toEqual([]);
    expect(fake.calls.map((c) => c.safetyIdentifier)).toEqual([identifier, null]);
  });

  it('the default model takes no input_fidelity, and the adapter sends none', async () => {
    expect(planEdit(DEFAULT_OPENAI_IMAGE_MODEL, 'high').params).not.toHaveProperty('input_fidelity');
    await provider(DEFAULT_OPENAI_IMAGE_MODEL).generate(request);
    expect(fake.calls[0]).toMatchObject({ inputFidelity: null, outputFormat: 'png' });
  });

  it('a shut-down model fails fast as a misconfiguration, with OpenAI 404 model_not_found', async () => {
    const error = await provider('gpt-image-1')
      .generate(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ProviderMisconfiguredError',
      details: { model: 'gpt-image-1', param: null, code: 'model_not_found', status: 404 },
    });
  });

  it('gpt-image-1.5 is refused from 2026-12-01 on (the clock of the request)', async () => {
    fake.clock = () => new Date('2026-12-01T00:00:00Z');
    const error = await provider('gpt-image-1.5')
      .generate(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ProviderMisconfiguredError', details: { status: 404 } });
    fake.clock = () => new Date('2026-12-01T00:00:00Z');
    await expect(provider(DEFAULT_OPENAI_IMAGE_MODEL).generate(request)).resolves.toBeInstanceOf(Buffer);
  });

  it('an unknown model is sent only what every model takes, with a warning', async () => {
    const { logger } = await import('../../functions/common/logger');
    const warn = vi.spyOn(logger, 'warn');
    const plan = planEdit('gpt-image-9', 'high');
    expect(plan.params).toEqual({ model: 'gpt-image-9', size: '1024x1536', n: 1, quality: 'high' });
    const error = await provider('gpt-image-9')
      .generate(request)
      .catch((e: unknown) => e);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('not in the model table'), expect.anything());
    // The stand-in does not know it either: OpenAI's 400 naming `model` is a misconfiguration.
    expect(error).toMatchObject({
      name: 'ProviderMisconfiguredError',
      details: { param: 'model', code: 'model_not_found', status: 400 },
    });
  });

  it('a quality the model does not take never reaches OpenAI', async () => {
    const adapter = createOpenAiProvider({
      apiKey: KEY,
      baseURL: fake.baseURL,
      model: 'gpt-image-2',
      quality: 'max',
    });
    await expect(adapter.generate(request)).rejects.toMatchObject({ name: 'ProviderMisconfiguredError' });
    expect(fake.calls).toHaveLength(0);
    expect(fake.refused).toHaveLength(0);
  });

  it('a 400 naming a parameter is a misconfiguration: metric and log carry model, param and code', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    // An adapter of the old kind: input_fidelity to a model that takes none.
    fake.answer = () => ({
      status: 400,
      body: {
        error: {
          message: "The model 'gpt-image-2' does not support the 'input_fidelity' parameter.",
          type: 'image_generation_user_error',
          param: 'input_fidelity',
          code: 'invalid_input_fidelity_model',
        },
      },
    });
    try {
      const error = await provider('gpt-image-2')
        .generate(request)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'ProviderMisconfiguredError',
        details: { model: 'gpt-image-2', param: 'input_fidelity', code: 'invalid_input_fidelity_model' },
      });
    } finally {
      fake.answer = () => 'image';
      vi.unstubAllEnvs();
    }
    const metric = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => '_aws' in l && 'ProviderMisconfigured' in l);
    expect(metric).toMatchObject({
      ProviderMisconfigured: 1,
      model: 'gpt-image-2',
      param: 'input_fidelity',
      code: 'invalid_input_fidelity_model',
    });
  });
});

describe('the stand-in refuses what OpenAI refuses', () => {
  type Fields = Record<string, string>;
  const jpeg = (bytes: Buffer = photo, type = 'image/jpeg') => toFile(bytes, 'r.jpg', { type });

  /** A raw request (no adapter): the SDK as any caller would use it, then OpenAI's answer. */
  async function edit(fields: Fields, images?: Awaited<ReturnType<typeof jpeg>>[], apiKey = KEY) {
    const client = new OpenAI({ apiKey, baseURL: fake.baseURL, maxRetries: 0 });
    try {
      const body = { prompt: 'p', model: 'gpt-image-2', ...fields, image: images ?? [await jpeg()] };
      return { status: 200, body: await client.images.edit(body as never) };
    } catch (error) {
      const e = error as { status: number; error: unknown };
      return { status: e.status, body: e.error };
    }
  }

  it('a safety_identifier over 128 characters: the 400 string_above_max_length OpenAI answers for a too-long field', async () => {
    expect((await edit({ safety_identifier: 's'.repeat(128) })).status).toBe(200);
    expect((await edit({ safety_identifier: '' })).status).toBe(200);
    expect(await edit({ safety_identifier: 's'.repeat(129) })).toEqual({
      status: 400,
      body: {
        message:
          "Invalid 'safety_identifier': string too long. Expected a string with maximum length 128, but got a string with length 129 instead.",
        type: 'invalid_request_error',
        param: 'safety_identifier',
        code: 'string_above_max_length',
      },
    });
  });

  it('input_fidelity on every model that takes none: the 400 of pydantic/pydantic-ai#5413', async () => {
    for (const model of OPENAI_IMAGE_MODELS.filter((m) => !isShutDown(m, TODAY))) {
      const answer = await edit({ model: model.id, input_fidelity: 'high' });
      if (model.inputFidelity.includes('high')) {
        expect(answer.status).toBe(200);
      } else if (model.inputFidelity.length === 0) {
        expect(answer).toEqual({
          status: 400,
          body: {
            message: `The model '${model.id}' does not support the 'input_fidelity' parameter.`,
            type: 'image_generation_user_error',
            param: 'input_fidelity',
            code: 'invalid_input_fidelity_model',
          },
        });
      } else {
        expect(answer).toMatchObject({
          status: 400,
          body: { param: 'input_fidelity', code: 'invalid_value' },
        });
      }
    }
  });

  it.each<[string, Fields, { status: number; param: string | null; code: string | null }]>([
    ['an unknown parameter', { style: 'vivid' }, { status: 400, param: 'style', code: 'unknown_parameter' }],
    ['xhigh on gpt-image-2', { quality: 'xhigh' }, { status: 400, param: 'quality', code: 'invalid_value' }],
    [
      'a size off the grid',
      { model: 'gpt-image-2.6-flare', size: '1000x1000' },
      { status: 400, param: 'size', code: 'invalid_value' },
    ],
    [
      'a flexible size on a standard model',
      { model: 'gpt-image-1.5', size: '2048x2048' },
      { status: 400, param: 'size', code: 'invalid_value' },
    ],
    ['n of 11', { n: '11' }, { status: 400, param: 'n', code: 'integer_above_max_value' }],
    ['n of 0', { n: '0' }, { status: 400, param: 'n', code: 'integer_below_min_value' }],
    [
      'svg from a 2.5 model',
      { model: 'gpt-image-2.5-sunburst', output_format: 'svg' },
      { status: 400, param: 'output_format', code: 'invalid_value' },
    ],
    [
      'output_compression with PNG',
      { output_compression: '80' },
      { status: 400, param: 'output_compression', code: 'invalid_value' },
    ],
    ['an unknown model', { model: 'gpt-image-9' }, { status: 400, param: 'model', code: 'model_not_found' }],
    ['a shut-down model', { model: 'gpt-image-1' }, { status: 404, param: null, code: 'model_not_found' }],
  ])('%s', async (_, fields, expected) => {
    const answer = await edit(fields);
    expect(answer).toMatchObject({
      status: expected.status,
      body: { param: expected.param, code: expected.code },
    });
    expect(answer.body).toHaveProperty('message', expect.any(String));
    expect(answer.body).toHaveProperty('type', expect.any(String));
  });

  it('no image, more than 16, and bytes that are not PNG, JPEG or WebP whatever their declared type', async () => {
    expect(await edit({}, [])).toMatchObject({ status: 400, body: { param: 'image' } });
    const seventeen = await Promise.all(Array.from({ length: 17 }, () => jpeg()));
    expect(await edit({}, seventeen)).toMatchObject({
      status: 400,
      body: { param: 'image', code: 'array_above_max_length' },
    });
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
    expect(await edit({}, [await jpeg(gif)])).toMatchObject({ status: 400, body: { param: 'image' } });
    expect(await edit({}, [await jpeg(gif, 'image/gif')])).toMatchObject({
      status: 400,
      body: { param: 'image', code: 'unsupported_file_mimetype' },
    });
    const webp = await sharp(photo).webp().toBuffer();
    expect(await edit({}, [await jpeg(webp, 'image/webp')])).toMatchObject({ status: 200 });
  });

  it('a missing or invalid key: 401 as OpenAI sends it', async () => {
    expect(await edit({}, undefined, 'not-a-key')).toMatchObject({
      status: 401,
      body: { code: 'invalid_api_key', type: 'invalid_request_error', param: null },
    });
    const response = await fetch(`${fake.baseURL}/images/edits`, { method: 'POST', body: new FormData() });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /You didn't provide an API key/,
    );
  });

  it('answers PNG when no output_format is asked, JPEG and WebP when asked', async () => {
    const decoded = async (fields: Fields) => {
      const answer = await edit(fields);
      const b64 = (answer.body as OpenAI.Images.ImagesResponse).data![0]!.b64_json!;
      return (await sharp(Buffer.from(b64, 'base64')).metadata()).format;
    };
    expect(await decoded({})).toBe('png');
    expect(await decoded({ output_format: 'jpeg', output_compression: '50' })).toBe('jpeg');
    expect(await decoded({ output_format: 'webp' })).toBe('webp');
  });
});
