import { describe, expect, it } from 'vitest';
import {
  deletePartialImages,
  latestPartialImages,
  putPartialImage,
} from '../../functions/adapters/partial-images';
import { headObject } from '../../functions/adapters/storage';
import { partialImageKey } from '../../functions/domain/object-keys';

/*
 * The partial-images adapter against the local S3 (issue 36, decision 025): a slot keeps only its latest partial,
 * the generation view's one List finds each slot's latest and presigns a URL that serves its bytes, and a finished
 * slot's partials are deleted. Keys are this test's own: the other files share the bucket.
 */

describe('partial images under partial/', () => {
  it('keeps the latest per slot, lists and presigns it, and deletes a finished slot', async () => {
    const sub = `partial-test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const generationId = 'G1';
    await putPartialImage(sub, generationId, 0, 0, Buffer.from('slot 0, first'));
    await putPartialImage(sub, generationId, 0, 1, Buffer.from('slot 0, second'));
    await putPartialImage(sub, generationId, 2, 0, Buffer.from('slot 2, first'));
    // The first partial of slot 0 was replaced: only the latest stays.
    expect(await headObject('results', partialImageKey(sub, generationId, 0, 0))).toBeUndefined();

    const previews = await latestPartialImages(sub, generationId);
    expect(previews.map(({ slot, index }) => ({ slot, index }))).toEqual([
      { slot: 0, index: 1 },
      { slot: 2, index: 0 },
    ]);
    const served = await fetch(previews[0]!.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).toString()).toBe('slot 0, second');

    await deletePartialImages(sub, generationId, 0);
    expect((await latestPartialImages(sub, generationId)).map((p) => p.slot)).toEqual([2]);
    expect(await latestPartialImages(sub, 'another-generation')).toEqual([]);
  });
});
