import { readFileSync } from 'node:fs';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizePhoto } from '../../functions/adapters/images';
import { createLocalProvider, renderLocalHeadshot } from '../../functions/adapters/image-providers/local';
import { analyzeFaces, decodeRgb } from '../../functions/adapters/support/vision-models/faces';
import { DEFAULT_LIKENESS_THRESHOLD, likenessOf, meanDescriptor } from '../../functions/domain/likeness';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import { mapOpenAiError, supportsInputFidelity } from '../../functions/adapters/image-providers/openai';
import type { HeadshotRequest } from '../../functions/adapters/image-providers/types';
import type { Background, Style } from '../../functions/domain/styles';
import { buildPrompt } from '../../functions/domain/prompts';
import { FIXTURE_PHOTOS } from '../helpers/generation';

describe('openai provider error mapping', () => {
  const headers = new Headers();
  it('maps statuses and client failures to the names the workflow retries or refunds', () => {
    const cases: [unknown, string][] = [
      [
        new RateLimitError(429, { code: 'rate_limit_exceeded', message: 'slow down' }, undefined, headers),
        'ProviderThrottledError',
      ],
      // Our organisation's billing: it pages, and never counts as the caller's refusal.
      [
        new RateLimitError(429, { code: 'insufficient_quota', message: 'billing' }, undefined, headers),
        'ProviderMisconfiguredError',
      ],
      [
        new InternalServerError(503, { message: 'overloaded' }, undefined, headers),
        'ProviderUnavailableError',
      ],
      [
        new BadRequestError(400, { code: 'moderation_blocked', message: 'safety' }, undefined, headers),
        'ProviderRejectedError',
      ],
      // A 400 naming a configuration parameter is our configuration, not this request: every slot would fail alike.
      [
        new BadRequestError(
          400,
          { code: 'invalid_input_fidelity_model', param: 'input_fidelity', message: 'no fidelity' },
          undefined,
          headers,
        ),
        'ProviderMisconfiguredError',
      ],
      [
        new BadRequestError(
          400,
          { code: 'invalid_value', param: 'quality', message: 'xhigh' },
          undefined,
          headers,
        ),
        'ProviderMisconfiguredError',
      ],
      // …but one naming the customer's content refuses this request only.
      [
        new BadRequestError(
          400,
          { code: 'invalid_image_file', param: 'image', message: 'bad' },
          undefined,
          headers,
        ),
        'ProviderRejectedError',
      ],
      [
        new AuthenticationError(401, { code: 'invalid_api_key', message: 'wrong key' }, undefined, headers),
        'ProviderMisconfiguredError',
      ],
      [
        new NotFoundError(404, { code: 'model_not_found', message: 'deprecated' }, undefined, headers),
        'ProviderMisconfiguredError',
      ],
      [new APIConnectionTimeoutError(), 'ProviderTimeoutError'],
      [new APIConnectionError({ message: 'ECONNRESET' }), 'ProviderUnavailableError'],
    ];
    for (const [error, name] of cases) {
      const mapped = mapOpenAiError(error);
      expect(mapped.name).toBe(name);
      expect(mapped.constructor.name).toBe(name);
    }
    expect(
      mapOpenAiError(new RateLimitError(429, { message: 'slow down' }, undefined, headers)).message,
    ).toBe('OpenAI: 429 slow down');
  });

  // Changed deliberately (issue 23): the gpt-image-2 family answers 400 invalid_input_fidelity_model.
  it('asks for high input fidelity only on the models that take it', () => {
    expect(supportsInputFidelity('gpt-image-2.6-sunburst')).toBe(false);
    expect(supportsInputFidelity('gpt-image-2')).toBe(false);
    expect(supportsInputFidelity('gpt-image-1.5')).toBe(true);
    expect(supportsInputFidelity('gpt-image-1-mini')).toBe(false);
    expect(supportsInputFidelity('dall-e-2')).toBe(false);
  });
});

describe('local provider', () => {
  let references: Buffer[];
  const request = (style: Style, background: Background, slot = 0): HeadshotRequest => ({
    prompt: buildPrompt({ style, background }),
    references,
    style,
    background,
    slot,
    generationId: '01M80GZ6D1Q79C9B1WV0W2SV7Z',
  });

  /** Mean RGB of a region of a 1024×1280 canvas. */
  async function meanColor(
    image: Buffer,
    region: { left: number; top: number; width: number; height: number },
  ) {
    // stats() reads the input image, so the region is extracted into an image of its own first.
    const { channels } = await sharp(await sharp(image).extract(region).toBuffer()).stats();
    return channels.slice(0, 3).map((c) => c.mean);
  }
  const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));
  const corner = { left: 0, top: 0, width: 160, height: 160 };
  // Around the eyes, which sit at 40 % of the canvas's height (512 px; 410 px in the 1024 px square cut from it).
  const cheek = { left: 432, top: 402, width: 160, height: 160 };

  beforeAll(async () => {
    references = await Promise.all(
      ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg'].map(
        async (name) => (await normalizePhoto(readFileSync(`${FIXTURE_PHOTOS}${name}`))).jpeg,
      ),
    );
  });

  it('renders the 1024×1280 portrait canvas as a JPEG, the same for the same slot, different per slot', async () => {
    const provider = createLocalProvider();
    const [a, b, c] = await Promise.all([
      provider.generate(request('professional', 'office', 0)),
      provider.generate(request('professional', 'office', 0)),
      provider.generate(request('professional', 'office', 3)),
    ]);
    expect(await sharp(a).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 1280 });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  // Every style × background, rendered once for the tests below (12 renders: the costly part of this file).
  const renders = new Map<string, Buffer>();
  const rendered = (style: Style, background: Background) => renders.get(`${style}/${background}`)!;
  beforeAll(async () => {
    for (const style of STYLES) {
      for (const background of BACKGROUNDS) {
        renders.set(`${style}/${background}`, await renderLocalHeadshot(request(style, background)));
      }
    }
  }, 120_000);

  it('makes backgrounds visibly different around the same person', async () => {
    const images = BACKGROUNDS.map((bg) => rendered('professional', bg));
    const corners = await Promise.all(images.map((image) => meanColor(image, corner)));
    for (let i = 0; i < corners.length; i++) {
      for (let j = i + 1; j < corners.length; j++)
        expect(distance(corners[i]!, corners[j]!)).toBeGreaterThan(12);
    }
    // The person in the middle stays the same person: the face differs far less than the surround.
    const faces = await Promise.all(images.map((image) => meanColor(image, cheek)));
    expect(distance(faces[0]!, faces[1]!)).toBeLessThan(distance(corners[0]!, corners[1]!));
  });

  it('grades styles visibly differently: creative is the most saturated, business-casual the warmest', async () => {
    const [professional, casual, creative] = STYLES.map((style) => rendered(style, 'studio'));
    const saturation = async (image: Buffer) => {
      const [r, g, b] = await meanColor(image, cheek);
      return Math.max(r!, g!, b!) - Math.min(r!, g!, b!);
    };
    const warmth = async (image: Buffer) => {
      const [r, , b] = await meanColor(image, cheek);
      return r! - b!;
    };
    expect(await saturation(creative!)).toBeGreaterThan(await saturation(professional!));
    expect(await warmth(casual!)).toBeGreaterThan(await warmth(professional!));
  });

  it('puts exactly one face, eye-level and centred, that looks like the customer in every style × background', async () => {
    const referenceDescriptors = await Promise.all(
      references.map(async (bytes) => (await analyzeFaces(await decodeRgb(bytes))).faces[0]!.descriptor),
    );
    const customer = meanDescriptor(referenceDescriptors);
    const scores: Record<string, number> = {};
    for (const [key, image] of renders) {
      const { faces, width, height } = await analyzeFaces(await decodeRgb(image));
      expect(faces, key).toHaveLength(1);
      const face = faces[0]!;
      // Eyes at 40 % of the canvas's height: 40 % of the square cut from it, 102 px lower.
      const eyeY = (face.eyes[0].y + face.eyes[1].y) / 2 / height;
      const centreX = (face.eyes[0].x + face.eyes[1].x) / 2 / width;
      expect(Math.abs(eyeY - 0.4), key).toBeLessThan(0.06);
      expect(Math.abs(centreX - 0.5), key).toBeLessThan(0.06);
      expect(Math.abs(face.rollDegrees), key).toBeLessThan(3);
      scores[key] = likenessOf(face.descriptor, customer);
    }
    console.info('likeness of the offline provider’s headshots (style/background)', scores);
    for (const [key, score] of Object.entries(scores)) {
      expect(score, key).toBeGreaterThan(DEFAULT_LIKENESS_THRESHOLD);
    }
  }, 120_000);
});
