import { describe, expect, it } from 'vitest';
import { finalStatus, isTerminal, PROGRESS } from '../../functions/domain/generation-status';
import { GENERATION_ERROR_MESSAGES, generationErrorOf } from '../../functions/domain/generation-errors';
import { missingSlots, SLOTS, slotRefundRef } from '../../functions/domain/slots';
import { noUsablePhotosMessage } from '../../functions/domain/photos';
import {
  headshotImageKey,
  headshotThumbnailKey,
  isOwnUploadKey,
  isUlid,
  normalizedKey,
  uploadKey,
} from '../../functions/domain/object-keys';

const SUB = '6d716c5a-579a-47d4-82f0-e1ea157c6776';
const BATCH = '01M80GZ6D1Q79C9B1WV0W2SV7Z';

describe('generation rules', () => {
  it('has six slots, and progress that reaches the wizard’s three texts in order', () => {
    expect(SLOTS).toEqual([0, 1, 2, 3, 4, 5]);
    expect(PROGRESS.queued).toBeLessThan(PROGRESS.preparing);
    // < 30 'Analyzing your photos...'; 30-89 'Creating professional headshots...'; ≥ 90 'Almost done...'.
    expect(PROGRESS.prepared).toBe(30);
    expect(PROGRESS.generating + 5 * PROGRESS.perHeadshot).toBeLessThan(90);
    expect(PROGRESS.generating + 6 * PROGRESS.perHeadshot).toBeGreaterThanOrEqual(90);
    expect(PROGRESS.generating + 6 * PROGRESS.perHeadshot).toBeLessThan(PROGRESS.done);
  });

  it('ends succeeded with 6 headshots, partial with 1-5, failed with none', () => {
    expect(finalStatus(6)).toBe('succeeded');
    expect([1, 2, 3, 4, 5].map((n) => finalStatus(n))).toEqual(Array(5).fill('partial'));
    expect(finalStatus(0)).toBe('failed');
    expect(['succeeded', 'partial', 'failed'].every((s) => isTerminal(s as never))).toBe(true);
    expect(isTerminal('running')).toBe(false);
    expect(isTerminal('queued')).toBe(false);
  });

  it('refunds exactly the slots without a headshot, each with its own idempotency ref', () => {
    expect(missingSlots([0, 2, 5])).toEqual([1, 3, 4]);
    expect(missingSlots([])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(missingSlots(SLOTS)).toEqual([]);
    expect(slotRefundRef('01ABC', 3)).toBe('01ABC#slot-3');
  });

  it('shows the user-facing reason of NoUsablePhotosError, and never an internal message', () => {
    const reason = noUsablePhotosMessage([
      { index: 0, problem: 'empty' },
      { index: 2, problem: 'not-an-image' },
    ]);
    expect(reason).toBe(
      'None of your photos could be used: photo 1 is empty; photo 3 is not an image we can read (use JPG, PNG, WebP or HEIC). Please upload clear photos of yourself.',
    );
    const cause = JSON.stringify({ errorType: 'NoUsablePhotosError', errorMessage: reason, trace: ['at x'] });
    expect(generationErrorOf('NoUsablePhotosError', cause)).toEqual({
      code: 'NO_USABLE_PHOTOS',
      message: reason,
    });

    const internal = JSON.stringify({
      errorType: 'Error',
      errorMessage: 'ECONNRESET 10.0.0.7:5432',
      trace: [],
    });
    const generic = generationErrorOf('Error', internal);
    expect(generic).toEqual({
      code: 'GENERATION_FAILED',
      message: GENERATION_ERROR_MESSAGES.GENERATION_FAILED,
    });
    expect(generic.message).not.toContain('ECONNRESET');
    expect(generationErrorOf('NoHeadshotsError', '{}').code).toBe('PROVIDER_FAILED');
    expect(generationErrorOf('States.Timeout', undefined).code).toBe('TIMED_OUT');
    expect(generationErrorOf('Sandbox.Timedout', 'x').code).toBe('TIMED_OUT');
    expect(generationErrorOf(undefined, undefined).code).toBe('GENERATION_FAILED');
  });
});

describe('object keys', () => {
  it('scopes uploads and results by the owner’s sub', () => {
    expect(uploadKey(SUB, BATCH, 3)).toBe(`uploads/${SUB}/${BATCH}/3`);
    expect(normalizedKey(uploadKey(SUB, BATCH, 3))).toBe(`uploads/${SUB}/${BATCH}/normalized/3.jpg`);
    expect(headshotImageKey(SUB, BATCH, 5)).toBe(`results/${SUB}/${BATCH}/5.jpg`);
    expect(headshotThumbnailKey(SUB, BATCH, 5)).toBe(`results/${SUB}/${BATCH}/thumbnails/5.webp`);
    expect(isUlid(BATCH)).toBe(true);
    expect(isUlid('not-a-ulid')).toBe(false);
  });

  it('accepts only keys the upload API could have made for this caller', () => {
    expect(isOwnUploadKey(SUB, uploadKey(SUB, BATCH, 0))).toBe(true);
    expect(isOwnUploadKey(SUB, uploadKey(SUB, BATCH, 9))).toBe(true);
    const other = 'b1d2c3e4-0000-4000-8000-000000000000';
    for (const key of [
      uploadKey(other, BATCH, 0),
      normalizedKey(uploadKey(SUB, BATCH, 0)),
      `uploads/${SUB}/../${other}/${BATCH}/0`,
      `uploads/${SUB}/${BATCH}/0/../../x`,
      `uploads/${SUB}/not-a-batch/0`,
      `results/${SUB}/${BATCH}/0.jpg`,
      `uploads/${SUB}/${BATCH}/`,
      ` uploads/${SUB}/${BATCH}/0`,
    ]) {
      expect(isOwnUploadKey(SUB, key), key).toBe(false);
    }
  });
});

describe('one-slot generations (Regenerate, 1 credit)', () => {
  it('expect one headshot: succeeded with it, failed without, and only slot 0 can be missing', async () => {
    const { finalStatus } = await import('../../functions/domain/generation-status');
    const { missingSlots, REGENERATE_SLOTS } = await import('../../functions/domain/slots');
    expect(REGENERATE_SLOTS).toEqual([0]);
    expect(finalStatus(1, { expected: 1 })).toBe('succeeded');
    expect(finalStatus(0, { expected: 1 })).toBe('failed');
    expect(missingSlots([], { slotCount: 1 })).toEqual([0]);
    expect(missingSlots([0], { slotCount: 1 })).toEqual([]);
    expect(missingSlots([0])).toEqual([1, 2, 3, 4, 5]);
  });
});
