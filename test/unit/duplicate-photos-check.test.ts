import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizedPixels } from '../../functions/adapters/images';
import { quotaRules } from '../../functions/adapters/quotas';
import { analyzePhotoPixels } from '../../functions/adapters/vision/photo-facts';
import { PHOTO_CHECK_MESSAGES } from '../../functions/domain/photo-checks';
import { checkPhotos, type CheckPhotosPorts } from '../../functions/use-cases/check-photos';
import { FakePhotoCheckCache } from './use-cases/fakes/photos';
import { FakeQuotas } from './use-cases/fakes/quotas';
import { FakeBuckets } from './use-cases/fakes/storage';

/**
 * Issue 35's acceptance for near-duplicates (docs/decisions/024-near-duplicates.md): a photo check of `obama.jpg`, its
 * upscaled-with-grain 4:3 crop `obama-12mp.jpg` and its letterboxed copy `obama-720p.jpg` keeps one and rejects the
 * other two as `duplicate`, while the different photos of one person (person01 of test/fixtures/faces: eight photos,
 * several of one sitting) are none of them a duplicate. Through the photo-check use case with the real decoder and
 * vision adapter; uploads, the checks' cache and the quota in memory.
 */

const SUB = 'user-1';
const BATCH = '01KDWYDY00BBBBBBBBBBBBBBBB';
const FIXTURES = new URL('../fixtures/', import.meta.url);

/** The photo checks' ports with the real decoder and face models, and the named fixtures uploaded. */
function uploaded(paths: string[]) {
  const buckets = new FakeBuckets();
  const cache = new FakePhotoCheckCache();
  const quotas = new FakeQuotas();
  const keys = paths.map((path, n) => {
    const key = `uploads/${SUB}/${BATCH}/${n}`;
    buckets.put('uploads', key, readFileSync(new URL(path, FIXTURES)));
    return key;
  });
  const ports: CheckPhotosPorts = {
    headObject: buckets.headObject,
    getObject: buckets.getObject,
    cachedPhotoChecks: cache.cachedPhotoChecks,
    savePhotoFacts: cache.savePhotoFacts,
    consumePhotoChecks: (sub, amount) => quotas.consumeQuota({ sub }, quotaRules().photoChecks, amount),
    normalizedPixels,
    analyzePhotoPixels,
  };
  return { keys, ports, cache };
}

const codesOf = (check: { reasons: { code: string }[] }) => check.reasons.map((r) => r.code);

describe('near-duplicates in a photo check', () => {
  it('rejects the upscaled-with-grain and letterboxed copies of a photo as duplicates of the best one', async () => {
    const { keys, ports, cache } = uploaded([
      'photos/obama.jpg',
      'photos/obama-12mp.jpg',
      'photos/obama-720p.jpg',
    ]);
    const { checks, quality } = await checkPhotos(SUB, keys, ports);
    console.info('near-duplicate check', {
      checks: checks.map(({ key, verdict, score, duplicateOf }) => ({ key, verdict, score, duplicateOf })),
      quality,
    });
    const kept = checks.filter((c) => !codesOf(c).includes('duplicate'));
    const duplicates = checks.filter((c) => codesOf(c).includes('duplicate'));
    expect(kept).toHaveLength(1);
    expect(duplicates).toHaveLength(2);
    // The copy kept is the best-scoring one; the others name it, with the existing reason and message.
    expect(kept[0]!.score).toBe(Math.max(...checks.map((c) => c.score)));
    const keptNumber = keys.indexOf(kept[0]!.key) + 1;
    for (const duplicate of duplicates) {
      expect(duplicate.verdict).toBe('rejected');
      expect(duplicate.duplicateOf).toBe(kept[0]!.key);
      expect(duplicate.reasons[0]!.message).toBe(
        `This looks like the same picture as photo ${keptNumber}, so we'll only use it once. Please use a different photo.`,
      );
    }
    expect(PHOTO_CHECK_MESSAGES.duplicate).toContain('same picture');
    // What was stored holds the aligned face crops, so a re-check sees the copies without the models.
    expect([...cache.checks.values()].every((c) => typeof c.facts.faceCrop === 'string')).toBe(true);
    const again = await checkPhotos(SUB, keys, {
      ...ports,
      analyzePhotoPixels: () => Promise.reject(new Error('ran')),
    });
    expect(again.checks.map(codesOf)).toEqual(checks.map(codesOf));
  }, 120_000);

  it('calls none of the different photos of one person a duplicate', async () => {
    const paths = Array.from({ length: 8 }, (_, i) => `faces/person01-${i + 1}.jpg`);
    const { keys, ports } = uploaded(paths);
    const { checks } = await checkPhotos(SUB, keys, ports);
    expect(checks.map(codesOf).filter((codes) => codes.includes('duplicate'))).toEqual([]);
    expect(checks.every((c) => c.verdict !== 'rejected')).toBe(true);
  }, 120_000);
});
