import { describe, expect, it } from 'vitest';
import { expireObjects } from '../../functions/adapters/object-expiry';
import { headObject, putObject } from '../../functions/adapters/storage';
import {
  lifecycleExpiry,
  OBJECT_EXPIRY_RULES,
  UPLOAD_RETENTION_DAYS,
} from '../../functions/domain/retention';

/*
 * The local stack's stand-in for the buckets' S3 lifecycle rules (functions/scheduled/local-object-expiry.ts): an
 * upload is deleted once its rule's expiry (creation + days, rounded up to midnight UTC, as S3 computes it) has
 * passed, and not before; other prefixes' objects follow their own rules.
 */

const DAY = 86_400_000;

describe('lifecycleExpiry', () => {
  it('adds the days and rounds up to the next midnight UTC, as S3 does', () => {
    expect(lifecycleExpiry(new Date('2026-11-26T21:40:00Z'), 7).toISOString()).toBe(
      '2026-12-04T00:00:00.000Z',
    );
    expect(lifecycleExpiry(new Date('2026-11-26T00:00:00Z'), 1).toISOString()).toBe(
      '2026-11-27T00:00:00.000Z',
    );
  });
});

describe('expireObjects (the local S3 lifecycle)', () => {
  it('deletes an upload after its rule, and nothing before', async () => {
    const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const upload = `uploads/expiry-test-${stamp}/0.jpg`;
    const headshot = `results/expiry-test-${stamp}/gen/0.jpg`;
    await putObject('uploads', upload, Buffer.from('photo'), 'image/jpeg');
    await putObject('results', headshot, Buffer.from('headshot'), 'image/jpeg');
    const uploads = OBJECT_EXPIRY_RULES.find((r) => r.prefix === 'uploads/')!;
    const results = OBJECT_EXPIRY_RULES.find((r) => r.prefix === 'results/')!;
    expect(uploads.days).toBe(UPLOAD_RETENTION_DAYS);

    // Only this test's own objects: the other test files share the buckets.
    const mine = (rule: typeof uploads) => `${rule.prefix}expiry-test-${stamp}/`;
    await expireObjects(uploads, new Date(Date.now() + (UPLOAD_RETENTION_DAYS - 1) * DAY), mine(uploads));
    expect(await headObject('uploads', upload)).toBeDefined();
    await expireObjects(uploads, new Date(Date.now() + (UPLOAD_RETENTION_DAYS + 1) * DAY), mine(uploads));
    expect(await headObject('uploads', upload)).toBeUndefined();

    // A week later is nothing to the headshots' year.
    await expireObjects(results, new Date(Date.now() + (UPLOAD_RETENTION_DAYS + 1) * DAY), mine(results));
    await expect(expireObjects(results, new Date(), 'uploads/')).rejects.toThrow(/outside/);
    expect(await headObject('results', headshot)).toBeDefined();
  });
});
