/*
 * Issue 36's parameters (docs/openai-image-models.md "Parameters per use", decision 025): the adapter plans each use
 * (first generation, edit, upscale) and sends each model only what it takes, against the strict stand-in, which
 * refuses `complexity`, `background`, `partial_images` as OpenAI does and streams as OpenAI streams.
 */

import { readFileSync } from 'node:fs';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider, planCall } from '../../functions/adapters/image-providers/openai';
import type { HeadshotRequest } from '../../functions/adapters/image-providers/types';
import type { EditRequest } from '../../functions/domain/edits';
import * as table from '../../functions/domain/openai-image-models';
import {
  needsLocalCutout,
  PARTIAL_IMAGES,
  partialImagesUsd,
} from '../../functions/domain/openai-image-purposes';
import { useFakeOpenAi } from '../helpers/fake-openai';

const { DEFAULT_OPENAI_IMAGE_MODEL, OPENAI_IMAGE_MODELS, isShutDown } = table;
const TODAY = new Date('2026-11-26T12:00:00Z');
const stand = useFakeOpenAi(TODAY);
const KEY = 'sk-test-edit-parameters';
const photo = readFileSync(new URL('../fixtures/photos/obama.jpg', import.meta.url));
let headshot: Buffer;

beforeAll(async () => {
  headshot = await sharp(photo).resize(1024, 1280, { fit: 'cover' }).png().toBuffer();
});

const colour: EditRequest = { kind: 'background', background: { type: 'colour', colour: '#336699' } };
const transparent: EditRequest = { kind: 'background', background: { type: 'transparent' } };

const look = { style: 'professional', background: 'studio', slot: 0 } as const;
const generation: HeadshotRequest = {
  ...look,
  generationId: 'edits',
  prompt: 'A headshot.',
  references: [photo],
};
const edit = (request: EditRequest, purpose: 'edit' | 'upscale' = 'edit'): HeadshotRequest => ({
  ...generation,
  prompt: 'Change only the background; keep everything else.',
  purpose,
  edit: { image: headshot, request },
});

const provider = (model = DEFAULT_OPENAI_IMAGE_MODEL) =>
  createOpenAiProvider({ apiKey: KEY, baseURL: stand().baseURL, model });

describe('the parameters per use (the model table decides what is sent)', () => {
  it('a first generation on the default model: configured quality, requested canvas, no complexity, no stream', () => {
    const use = { purpose: 'generation', resolution: 'standard', takesPartialImages: true } as const;
    expect(planCall(DEFAULT_OPENAI_IMAGE_MODEL, 'high', use).params).toEqual({
      model: DEFAULT_OPENAI_IMAGE_MODEL,
      size: '1024x1280',
      quality: 'high',
      n: 1,
      output_format: 'png',
    });
  });

  it('an edit: high, low planning (medium for a reframe), opaque backdrop, streamed only when partials are taken', () => {
    const use = { purpose: 'edit', resolution: 'high', request: colour, takesPartialImages: true } as const;
    expect(planCall(DEFAULT_OPENAI_IMAGE_MODEL, 'medium', use).params).toEqual({
      model: DEFAULT_OPENAI_IMAGE_MODEL,
      size: '1024x1280',
      quality: 'high',
      n: 1,
      output_format: 'png',
      background: 'opaque',
      complexity: 'low',
      stream: true,
      partial_images: PARTIAL_IMAGES,
    });
    const reframe = { ...use, request: { kind: 'reframe', framing: 'wider' } as const };
    expect(planCall(DEFAULT_OPENAI_IMAGE_MODEL, 'high', reframe).params.complexity).toBe('medium');
    const quiet = planCall(DEFAULT_OPENAI_IMAGE_MODEL, 'high', { ...use, takesPartialImages: false }).params;
    expect(quiet).not.toHaveProperty('stream');
    expect(quiet).not.toHaveProperty('partial_images');
  });

  it("an upscale: the model's largest 4:5 size (2560x3200 on the flexible grid, 1024x1536 standard)", () => {
    const use = {
      purpose: 'upscale',
      resolution: 'standard',
      request: { kind: 'upscale' },
      takesPartialImages: false,
    };
    expect(planCall(DEFAULT_OPENAI_IMAGE_MODEL, 'high', use as never).params).toMatchObject({
      size: '2560x3200',
      quality: 'high',
      complexity: 'low',
    });
    expect(planCall('gpt-image-1.5', 'high', use as never).params.size).toBe('1024x1536');
  });

  it('complexity only to the 2.6 models; transparent only where the model makes it, else an opaque backdrop', () => {
    const use = {
      purpose: 'edit',
      resolution: 'standard',
      request: transparent,
      takesPartialImages: false,
    } as const;
    for (const model of OPENAI_IMAGE_MODELS) {
      const params = planCall(model.id, 'high', use).params;
      expect(params.complexity !== undefined).toBe(model.takesComplexity);
      const native = model.transparentBackground === 'supported';
      expect(params.background).toBe(native ? 'transparent' : 'opaque');
      expect(needsLocalCutout(model, transparent)).toBe(!native);
    }
    expect(needsLocalCutout(undefined, transparent)).toBe(true);
    expect(needsLocalCutout(undefined, colour)).toBe(false);
    // gpt-image-2's transparency is a preview (the SDK 7.57.0): the product does not rely on it.
    expect(planCall('gpt-image-2', 'high', use).params.background).toBe('opaque');
  });

  it('partial images cost 100 image output tokens each: $0.003 at $30 per million', () => {
    expect(partialImagesUsd(1)).toBeCloseTo(0.003, 6);
    expect(partialImagesUsd(PARTIAL_IMAGES)).toBeCloseTo(0.006, 6);
  });
});

describe('the adapter against the strict stand-in', () => {
  // One model of each kind: standard sizes, no complexity, the default (gpt-image-2's preview: the test after).
  const kinds = ['gpt-image-1.5', 'gpt-image-2.5-flare', DEFAULT_OPENAI_IMAGE_MODEL];

  it('the kinds tested are live models of the table', () => {
    for (const id of kinds) {
      const model = OPENAI_IMAGE_MODELS.find((m) => m.id === id);
      expect(model && !isShutDown(model, TODAY)).toBe(true);
    }
  });

  it.each(kinds.map((id) => [id] as const))(
    '%s: a streamed transparent edit is accepted as sent',
    async (id) => {
      const partials: number[] = [];
      const image = await provider(id).generate({
        ...edit(transparent),
        safetyIdentifier: 'e'.repeat(64),
        onPartialImage: async (_, index) => {
          partials.push(index);
        },
      });
      expect(stand().refused).toEqual([]);
      expect(stand().calls).toHaveLength(1);
      expect(stand().calls[0]!.images).toHaveLength(1);
      expect(stand().calls[0]!.images[0]!.type).toBe('image/png');
      expect(stand().calls[0]).toMatchObject({ stream: true, safetyIdentifier: 'e'.repeat(64) });
      expect(partials).toEqual([0, 1]);
      expect((await sharp(image).metadata()).format).toBe('png');
    },
  );

  it('the default model edits with the headshot itself and returns a PNG with an alpha channel', async () => {
    const image = await provider().generate(edit(transparent));
    expect(stand().calls[0]).toMatchObject({ background: 'transparent', complexity: 'low', stream: false });
    expect(stand().calls[0]!.images[0]!.bytes.equals(headshot)).toBe(true);
    const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0); // the corner is clear
  });

  it('gpt-image-2 (transparency a preview): asked an opaque backdrop, the person cut out here, alpha kept', async () => {
    const image = await provider('gpt-image-2').generate(edit(transparent));
    expect(stand().calls[0]).toMatchObject({ background: 'opaque' });
    const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ channels: 4, width: 1024, height: 1280 });
    // The corner is background (clear), the middle of the face is the person (opaque).
    expect(data[3]).toBeLessThan(64);
    expect(data[(640 * 1024 + 512) * 4 + 3]).toBeGreaterThan(192);
  });

  it('keeps going with the final image when fewer partials arrive than asked', async () => {
    stand().answer = () => ({ stream: { partials: 0 } });
    const partials: number[] = [];
    const image = await provider().generate({
      ...edit(colour),
      onPartialImage: async (_, i) => {
        partials.push(i);
      },
    });
    expect(partials).toEqual([]);
    expect((await sharp(image).metadata()).height).toBe(1280);
  });

  it('streams a scripted image (another face) as the final image of a streamed call', async () => {
    stand().answer = () => ({ image: photo });
    const partials: number[] = [];
    const image = await provider().generate({
      ...edit(colour),
      onPartialImage: async (_, i) => {
        partials.push(i);
      },
    });
    expect(image.equals(photo)).toBe(true);
    expect(partials).toEqual([0, 1]);
  });

  it('bounds the whole stream by the client timeout: a stream that outlasts it is a ProviderTimeoutError', async () => {
    stand().latencyMs = 3_000;
    try {
      const slow = createOpenAiProvider({
        apiKey: KEY,
        baseURL: stand().baseURL,
        model: DEFAULT_OPENAI_IMAGE_MODEL,
        timeoutMs: 300,
      });
      const error = await slow
        .generate({ ...edit(colour), onPartialImage: async () => undefined })
        .catch((e) => e);
      expect(error).toMatchObject({ name: 'ProviderTimeoutError' });
    } finally {
      stand().latencyMs = 0;
    }
  });

  it('a failing onPartialImage does not fail the call', async () => {
    const image = await provider().generate({
      ...edit(colour),
      onPartialImage: () => Promise.reject(new Error('S3 is down')),
    });
    expect(image).toBeInstanceOf(Buffer);
  });

  it.each([
    [
      'moderation_blocked',
      {
        message: 'Your request was rejected by the safety system.',
        type: 'image_generation_user_error',
        param: null,
      },
      'ProviderRejectedError',
    ],
    [
      'server_error',
      { message: 'The server had an error.', type: 'server_error', param: null },
      'ProviderUnavailableError',
    ],
  ])('an error event mid-stream (%s) is mapped as its HTTP twin', async (code, body, name) => {
    stand().answer = () => ({ stream: { partials: 1, error: { ...body, code } } });
    const partials: number[] = [];
    const error = await provider()
      .generate({
        ...edit(colour),
        onPartialImage: async (_, i) => {
          partials.push(i);
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name });
    expect(partials).toEqual([0]);
  });
});

describe('the stand-in refuses the issue-36 parameters as OpenAI does', () => {
  async function raw(fields: Record<string, string>) {
    const client = new OpenAI({ apiKey: KEY, baseURL: stand().baseURL, maxRetries: 0 });
    try {
      const image = [await toFile(photo, 'r.jpg', { type: 'image/jpeg' })];
      const body = { prompt: 'p', model: DEFAULT_OPENAI_IMAGE_MODEL, ...fields, image };
      return { status: 200, body: await client.images.edit(body as never) };
    } catch (error) {
      const e = error as { status: number; error: unknown };
      return { status: e.status, body: e.error };
    }
  }

  it.each<[string, Record<string, string>, Record<string, unknown>]>([
    [
      'complexity on a model without it',
      { model: 'gpt-image-2.5-sunburst', complexity: 'low' },
      { param: 'complexity', code: 'unsupported_parameter', type: 'invalid_request_error' },
    ],
    [
      'a complexity value off the list',
      { complexity: 'max' },
      { param: 'complexity', code: 'invalid_value' },
    ],
    [
      'a background value off the list',
      { background: 'clear' },
      { param: 'background', code: 'invalid_value' },
    ],
    [
      'transparent with JPEG output',
      { background: 'transparent', output_format: 'jpeg' },
      { message: 'Transparent background is not supported for JPEG output format', param: 'background' },
    ],
    [
      'partial_images of 4',
      { partial_images: '4' },
      { param: 'partial_images', code: 'integer_above_max_value' },
    ],
    [
      'partial_images of -1',
      { partial_images: '-1' },
      { param: 'partial_images', code: 'integer_below_min_value' },
    ],
  ])('%s: 400', async (_, fields, body) => {
    expect(await raw(fields)).toMatchObject({ status: 400, body });
  });

  it('takes what the default model takes: complexity, transparent PNG, partial_images 0-3', async () => {
    const accepted: Record<string, string>[] = [
      { complexity: 'high' },
      { background: 'transparent', output_format: 'webp' },
      { background: 'opaque', output_format: 'jpeg' },
      { partial_images: '3' },
    ];
    for (const fields of accepted) {
      expect(await raw(fields)).toMatchObject({ status: 200 });
    }
    expect(stand().refused).toEqual([]);
  });

  it("streams OpenAI's named events, and the completed usage counts 100 output tokens per partial", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      model: DEFAULT_OPENAI_IMAGE_MODEL,
      prompt: 'p',
      size: '1024x1280',
    })) {
      form.set(k, v);
    }
    form.set('stream', 'true');
    form.set('partial_images', '2');
    form.append('image[]', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'r.jpg');
    const response = await fetch(`${stand().baseURL}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(events).toEqual(['image_edit.partial_image', 'image_edit.partial_image', 'image_edit.completed']);
    const completed = JSON.parse(text.trim().split('\n').at(-1)!.slice('data: '.length)) as {
      usage: { output_tokens: number };
    };
    expect(completed.usage.output_tokens).toBe((1024 * 1280) / 1024 + 200);
  });
});
