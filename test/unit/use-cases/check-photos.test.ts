import { describe, expect, it } from 'vitest';
import { quotaRules } from '../../../functions/adapters/quotas';
import {
  analyzePhoto,
  checkPhotos,
  judgeUploads,
  PHOTO_NOT_FOUND,
  type CheckPhotosPorts,
} from '../../../functions/use-cases/check-photos';
import { AccountDeletingError, ItemNotFoundError } from '../../../functions/domain/errors';
import { MAX_UPLOAD_BYTES } from '../../../functions/domain/photos';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { checkPhotosPortsOf, FakePhotoCheckCache, FakeVision, photo, type PhotoSpec } from './fakes/photos';
import { FakeQuotas } from './fakes/quotas';
import { FakeBuckets } from './fakes/storage';

const SUB = 'user-1';
const BATCH = '01KDWYDY00BBBBBBBBBBBBBBBB';
const key = (n: number, sub = SUB) => `uploads/${sub}/${BATCH}/${n}`;

/** The photo checks' world: the uploads bucket, the checks' cache, the quotas and the models. */
function world(specs: PhotoSpec[] = []) {
  const buckets = new FakeBuckets();
  const cache = new FakePhotoCheckCache();
  const quotas = new FakeQuotas();
  const vision = new FakeVision();
  const etags = specs.map((spec, n) => buckets.put('uploads', key(n), photo(spec)));
  const ports: CheckPhotosPorts = checkPhotosPortsOf({ buckets, cache, quotas, vision });
  const keys = specs.map((_, n) => key(n));
  return { buckets, cache, quotas, vision, ports, keys, etags };
}

const quotaUsed = (quotas: FakeQuotas) => quotas.usedBy(SUB, 'photo-checks');

describe('analyzePhoto', () => {
  it('gives the facts and framing of a readable photo', async () => {
    const { ports } = world();
    const analysed = await analyzePhoto(photo({ person: 'b' }), ports);
    expect(analysed.facts.readable).toBe(true);
    expect(analysed.facts.descriptor).toEqual([0, 1, 0, 0]);
    expect(analysed.framing).toBeDefined();
    expect(analysed.problem).toBeUndefined();
  });

  it('answers an undecodable photo as unreadable with its problem, without the models', async () => {
    const { ports, vision } = world();
    const analysed = await analyzePhoto(photo({ unusable: 'too-small' }), ports);
    expect(analysed).toEqual({
      facts: { width: 0, height: 0, readable: false, faces: [] },
      problem: 'too-small',
    });
    expect(vision.analysed).toEqual([]);
  });

  it('passes on a decoder failure that is not about the photo', async () => {
    const { ports } = world();
    const broken = { ...ports, normalizedPixels: failing(new Error('libvips crashed')) };
    await expect(analyzePhoto(photo(), broken)).rejects.toThrow('libvips crashed');
  });
});

describe('checkPhotos (POST /api/photo-checks)', () => {
  it('checks each photo in the order given, stores what the models found and counts each analysed photo', async () => {
    const { ports, keys, cache, quotas, vision, etags } = world([{ shot: 1 }, { shot: 2 }, { shot: 3 }]);
    const answer = await checkPhotos(SUB, keys, ports);
    expect(answer.checks.map((c) => [c.key, c.verdict])).toEqual(keys.map((k) => [k, 'good']));
    expect(answer.quality).toBeGreaterThan(0);
    expect(vision.analysed).toHaveLength(3);
    expect(quotaUsed(quotas)).toBe(3);
    expect(keys.map((k) => cache.checks.get(k)?.etag)).toEqual(etags);
    expect(cache.checks.get(keys[0]!)?.framing).toBeDefined();
  });

  it("answers a warning photo's check without the reference choice's unverified mark (not in the contract)", async () => {
    // Only blurry photos: nothing to verify them against (decision 023), so the domain marks them unverified.
    const { ports, keys } = world([
      { shot: 1, sharpness: 20 },
      { shot: 2, sharpness: 20 },
    ]);
    const answer = await checkPhotos(SUB, keys, ports);
    expect(answer.checks.map((c) => [c.verdict, c.reasons.map((r) => r.code)])).toEqual([
      ['warning', ['blurry']],
      ['warning', ['blurry']],
    ]);
    for (const check of answer.checks)
      expect(Object.keys(check).sort()).toEqual(['key', 'reasons', 'score', 'verdict']);
  });

  it('answers a re-check from the cache: no model runs, no quota', async () => {
    const { ports, keys, quotas, vision } = world([{ shot: 1 }, { shot: 2 }]);
    const first = await checkPhotos(SUB, keys, ports);
    const again = await checkPhotos(SUB, keys, ports);
    expect(again).toEqual(first);
    expect(vision.analysed).toHaveLength(2);
    expect(quotaUsed(quotas)).toBe(2);
  });

  it('analyses a replaced photo again (another ETag) and only that one', async () => {
    const { ports, keys, buckets, quotas, vision } = world([{ shot: 1 }, { shot: 2 }]);
    await checkPhotos(SUB, keys, ports);
    buckets.put('uploads', keys[1]!, photo({ shot: 9 }));
    await checkPhotos(SUB, keys, ports);
    expect(vision.analysed.map((s) => s.shot)).toEqual([1, 2, 9]);
    expect(quotaUsed(quotas)).toBe(3);
  });

  it('analyses again a readable photo checked before the perceptual hash was kept', async () => {
    const { ports, keys, cache, etags, vision } = world([{ shot: 1 }]);
    cache.seed(keys[0]!, etags[0]!, {
      facts: { width: 10, height: 10, readable: true, faces: [] },
    });
    const answer = await checkPhotos(SUB, keys, ports);
    expect(vision.analysed).toHaveLength(1);
    expect(answer.checks[0]!.verdict).toBe('good');
  });

  it('analyses again a photo with a face checked before its aligned face crop was kept', async () => {
    const { ports, keys, cache, etags, vision } = world([{ shot: 1 }, { shot: 2 }]);
    await checkPhotos(SUB, keys, ports);
    // The first photo's check as stored before decision 024: its hash, but no face crop to see a reframed copy by.
    const { faceCrop: _crop, ...older } = cache.checks.get(keys[0]!)!.facts;
    cache.seed(keys[0]!, etags[0]!, { facts: older });
    await checkPhotos(SUB, keys, ports);
    expect(vision.analysed.map((s) => s.shot)).toEqual([1, 2, 1]);
    expect(cache.checks.get(keys[0]!)!.facts.faceCrop).toEqual(expect.any(String));
  });

  it('stores what it found under the ETag of the bytes it read, not the HEAD before it', async () => {
    const { ports, keys, buckets, cache } = world([{ shot: 1 }]);
    let replacedEtag = '';
    const racing: CheckPhotosPorts = {
      ...ports,
      getObject: async (bucket, k, max) => {
        replacedEtag = buckets.put('uploads', k, photo({ shot: 2 }));
        return buckets.getObject(bucket, k, max);
      },
    };
    await checkPhotos(SUB, keys, racing);
    expect(cache.checks.get(keys[0]!)?.etag).toBe(replacedEtag);
  });

  it('rejects a duplicate, naming the key of the copy kept', async () => {
    const { ports, keys } = world([{ shot: 1 }, { shot: 1 }]);
    const { checks } = await checkPhotos(SUB, keys, ports);
    expect(checks[1]).toMatchObject({ verdict: 'rejected', duplicateOf: keys[0] });
    expect(checks[1]!.reasons.map((r) => r.code)).toContain('duplicate');
  });

  it('rejects an undecodable photo as unreadable and stores that verdict too', async () => {
    const { ports, keys, cache } = world([{ unusable: 'not-an-image' }]);
    const { checks } = await checkPhotos(SUB, keys, ports);
    expect(checks[0]).toMatchObject({ verdict: 'rejected', score: 0 });
    expect(checks[0]!.reasons.map((r) => r.code)).toEqual(['unreadable']);
    expect(cache.checks.get(keys[0]!)?.facts.readable).toBe(false);
  });

  it('judges a photo over the upload limit unreadable without reading it, under its own ETag', async () => {
    const { ports, buckets, cache, vision } = world();
    const etag = buckets.put('uploads', key(0), Buffer.alloc(MAX_UPLOAD_BYTES + 1));
    const { checks } = await checkPhotos(SUB, [key(0)], ports);
    expect(checks[0]!.reasons.map((r) => r.code)).toEqual(['unreadable']);
    expect(cache.checks.get(key(0))?.etag).toBe(etag);
    expect(vision.analysed).toEqual([]);
  });

  it("refuses another user's key with the same 404 as a missing one, before reading anything", async () => {
    const { ports, keys, buckets, quotas } = world([{ shot: 1 }]);
    buckets.put('uploads', key(0, 'user-2'), photo());
    const foreign = checkPhotos(SUB, [...keys, key(0, 'user-2')], ports);
    await expect(foreign).rejects.toThrow(new ItemNotFoundError(PHOTO_NOT_FOUND));
    expect([...buckets.heads, ...buckets.reads]).toEqual([]);
    expect(quotaUsed(quotas)).toBe(0);
  });

  it('refuses a key that was never uploaded', async () => {
    const { ports } = world();
    await expect(checkPhotos(SUB, [key(3)], ports)).rejects.toBeInstanceOf(ItemNotFoundError);
  });

  it('refuses a photo deleted between its HEAD and its GET', async () => {
    const { ports, keys, buckets } = world([{ shot: 1 }]);
    const vanishing = { ...ports, getObject: async () => undefined };
    await expect(checkPhotos(SUB, keys, vanishing)).rejects.toBeInstanceOf(ItemNotFoundError);
    expect(buckets.stored('uploads', keys[0]!)).toBeDefined();
  });

  it('refuses the whole set past the hourly quota: nothing analysed, nothing counted', async () => {
    const { ports, keys, quotas, vision } = world([{ shot: 1 }, { shot: 2 }]);
    quotas.used.set(`${SUB}|photo-checks`, quotaRules().photoChecks.limit - 1);
    await expect(checkPhotos(SUB, keys, ports)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(vision.analysed).toEqual([]);
    expect(quotaUsed(quotas)).toBe(quotaRules().photoChecks.limit - 1);
  });

  it('refuses an account whose deletion has started', async () => {
    const { ports, keys, quotas } = world([{ shot: 1 }]);
    quotas.deleting.add(SUB);
    await expect(checkPhotos(SUB, keys, ports)).rejects.toBeInstanceOf(AccountDeletingError);
  });

  it('fails when the models fail, storing nothing for that photo', async () => {
    const { ports, keys, cache } = world([{ shot: 1 }]);
    const broken = { ...ports, analyzePhotoPixels: failing(new Error('model crashed')) };
    await expect(checkPhotos(SUB, keys, broken)).rejects.toThrow('model crashed');
    expect(cache.checks.size).toBe(0);
  });
});

describe('judgeUploads (PrepareReferences)', () => {
  it('judges a photo checked at its ETag from the stored check, without the models', async () => {
    const { ports, keys, vision } = world([{ shot: 1 }, { shot: 2 }]);
    await checkPhotos(SUB, keys, ports);
    const before = vision.analysed.length;
    const { results, models } = await judgeUploads(SUB, keys, ports);
    expect(models).toBe(0);
    expect(vision.analysed).toHaveLength(before);
    expect(results.map((r) => ('framing' in r ? r.index : -1))).toEqual([0, 1]);
  });

  it('runs the models on photos without a usable stored check, keeping the decoded copy', async () => {
    const { ports, keys, cache, etags } = world([{ shot: 1 }, { shot: 2 }, { shot: 3 }]);
    await checkPhotos(SUB, keys.slice(0, 1), ports);
    // A check with a face but no landmarks (stored before they were kept) cannot be cropped from.
    const { framing: _framing, ...noLandmarks } = cache.checks.get(keys[0]!)!;
    cache.seed(keys[0]!, etags[0]!, noLandmarks);
    const { results, models } = await judgeUploads(SUB, keys, ports);
    expect(models).toBe(3);
    expect(results.every((r) => 'image' in r && r.image)).toBe(true);
  });

  it('says why unusable uploads cannot be used, in the order given', async () => {
    const { ports, buckets } = world();
    buckets.put('uploads', key(0), photo({ unusable: 'too-small' }));
    buckets.put('uploads', key(1), Buffer.alloc(MAX_UPLOAD_BYTES + 1));
    buckets.put('uploads', key(3), photo());
    buckets.put('uploads', key(0, 'user-2'), photo());
    const keys = [key(0), key(1), key(2), key(0, 'user-2'), key(3)];
    const { results } = await judgeUploads(SUB, keys, ports);
    expect(results.map((r) => ('problem' in r ? r.problem : 'ok'))).toEqual([
      'too-small',
      'too-large',
      'missing',
      'missing',
      'ok',
    ]);
    expect(results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('fails when the cache cannot be read (the task is retried)', async () => {
    const { ports, keys } = world([{ shot: 1 }]);
    const broken = { ...ports, cachedPhotoChecks: failing(new Error('table down')) };
    await expect(judgeUploads(SUB, keys, broken)).rejects.toThrow('table down');
  });
});
