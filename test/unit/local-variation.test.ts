import { describe, expect, it } from 'vitest';
import { variationSeed } from '../../functions/adapters/image-providers/local';
import type { HeadshotRequest } from '../../functions/adapters/image-providers/types';

/** A request of two small "photos" (the seed hashes their bytes; no image is decoded). */
const request = (over: Partial<HeadshotRequest> = {}): HeadshotRequest => ({
  prompt: 'A corporate headshot',
  references: [Buffer.from('photo one'), Buffer.from('photo two')],
  style: 'professional',
  background: 'studio',
  slot: 2,
  generationId: '01JZ0000000000000000000001',
  ...over,
});

describe('the local provider’s variation seed (config LOCAL_PROVIDER_VARIATION)', () => {
  it('generation: two generations of the same request vary, the same generation and slot do not', () => {
    const first = variationSeed(request());
    expect(variationSeed(request())).toBe(first);
    expect(variationSeed(request({ generationId: '01JZ0000000000000000000002' }))).not.toBe(first);
    expect(variationSeed(request({ slot: 3 }))).not.toBe(first);
  });

  it('request: the same photos, choices and slot give the same seed in any generation', () => {
    const first = variationSeed(request(), 'request');
    expect(variationSeed(request({ generationId: '01JZ0000000000000000000002' }), 'request')).toBe(first);
    for (const changed of [
      request({ slot: 3 }),
      request({ prompt: 'A creative headshot' }),
      request({ style: 'creative' }),
      request({ background: 'office' }),
      request({ resolution: 'high' }),
      request({ references: [Buffer.from('photo one'), Buffer.from('photo 2')] }),
    ]) {
      expect(variationSeed(changed, 'request')).not.toBe(first);
    }
  });
});
