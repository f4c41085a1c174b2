import { describe, expect, it } from 'vitest';
import { editHeadshotBody } from '../../../functions/contracts/edits';
import { editOf, type EditDraft } from '../../../frontend/src/features/dashboard/components/EditSheet';
import {
  describeEdit,
  editUnavailable,
  versionName,
} from '../../../frontend/src/features/dashboard/utils/edit-options';
import {
  editOutcome,
  latestPartialPreview,
  type PartialPreview,
} from '../../../frontend/src/features/dashboard/hooks/use-edit-progress';
import { generationOf } from './fixtures';
import { versionOf } from './version-fixtures';

/* The viewer's edits without a screen: the request the sheet sends, the names the strip shows, and what an edit's
   one-slot generation came to (docs/product-spec.md §2 "Edit a headshot"). */

const draft = (patch: Partial<EditDraft>): EditDraft => ({
  kind: 'background',
  background: 'office',
  colour: '#1f6feb',
  list: { outfit: 'blazer', retouch: 'polished', reframe: 'wider' },
  ...patch,
});

describe('editOf: the edit the sheet posts', () => {
  it.each([
    [draft({}), { kind: 'background', background: { type: 'preset', background: 'office' } }],
    [
      draft({ background: 'colour', colour: '#1F6FEB' }),
      { kind: 'background', background: { type: 'colour', colour: '#1f6feb' } },
    ],
    [draft({ background: 'transparent' }), { kind: 'background', background: { type: 'transparent' } }],
    [draft({ kind: 'outfit' }), { kind: 'outfit', outfit: 'blazer' }],
    [draft({ kind: 'retouch' }), { kind: 'retouch', strength: 'polished' }],
    [draft({ kind: 'reframe' }), { kind: 'reframe', framing: 'wider' }],
    [draft({ kind: 'upscale' }), { kind: 'upscale' }],
  ])('%o → %o, which the route contract takes', (input, expected) => {
    const edit = editOf(input);
    expect(edit).toEqual(expected);
    expect(editHeadshotBody.safeParse({ edit }).success).toBe(true);
  });

  it('is null for a custom colour that is not # and six hex digits, so nothing is sent', () => {
    expect(editOf(draft({ background: 'colour', colour: '#12345' }))).toBeNull();
    expect(editOf(draft({ background: 'colour', colour: 'blue' }))).toBeNull();
  });
});

describe("the Versions strip's words", () => {
  it('names the original and each version by its place', () => {
    expect([versionName(null), versionName(1), versionName(12)]).toEqual(['Original', 'v1', 'v12']);
  });

  it.each([
    [{ kind: 'background', background: { type: 'colour', colour: '#1f6feb' } }, 'Background: #1f6feb'],
    [{ kind: 'background', background: { type: 'transparent' } }, 'Background: transparent'],
    [{ kind: 'background', background: { type: 'preset', background: 'studio' } }, 'Background: studio'],
    [{ kind: 'outfit', outfit: 'suit-and-tie' }, 'Outfit: suit and tie'],
    [{ kind: 'retouch', strength: 'natural' }, 'Retouch: natural'],
    [{ kind: 'reframe', framing: 'more-headroom' }, 'Reframe: more headroom'],
    [{ kind: 'upscale' }, 'Upscale'],
  ] as const)('%o reads %s', (edit, words) => {
    expect(describeEdit(edit)).toBe(words);
  });

  it('says why an edit cannot start under 1 credit, and nothing at 1 or an unknown balance', () => {
    expect(editUnavailable(0)).toBe('No credits left: an edit needs 1 credit; you have 0.');
    expect(editUnavailable(1)).toBeNull();
    expect(editUnavailable(undefined)).toBeNull();
  });
});

describe("editOutcome: what an edit's generation came to", () => {
  const previews = (list: PartialPreview[]) =>
    generationOf({ id: 'G1', headshotsExpected: 1, creditsReserved: 1, partialPreviews: list });

  it('runs with the latest partial image of slot 0 while the model streams', () => {
    const generation = previews([
      { slot: 0, url: 'https://s3/p/1', index: 1 },
      { slot: 0, url: 'https://s3/p/0', index: 0 },
    ]);
    expect(latestPartialPreview(generation)?.url).toBe('https://s3/p/1');
    expect(editOutcome(generation, [])).toEqual({
      state: 'running',
      progress: 5,
      preview: { slot: 0, url: 'https://s3/p/1', index: 1 },
    });
  });

  it('stays running after success until its version is listed: the finished image shows only once delivered', () => {
    const done = generationOf({ id: 'G1', status: 'succeeded', progress: 100, headshotsExpected: 1 });
    expect(editOutcome(done, [versionOf(7)]).state).toBe('running');
    expect(editOutcome(done, [versionOf(7), versionOf(1)])).toEqual({
      state: 'delivered',
      version: versionOf(1),
    });
  });

  it('is refunded, for likeness, when its face did not pass the check', () => {
    const failed = generationOf({
      id: 'G1',
      status: 'failed',
      creditsReserved: 1,
      creditsRefunded: 1,
      error: { code: 'LIKENESS_MISMATCH', message: 'Not like you.' },
    });
    expect(editOutcome(failed, [])).toEqual({ state: 'refunded', likeness: true });
  });

  it('is refunded, without a likeness reason, when the provider refused it or it finished with a refund', () => {
    const refused = generationOf({
      id: 'G1',
      status: 'failed',
      creditsRefunded: 1,
      error: { code: 'PROVIDER_FAILED', message: 'Refused.' },
    });
    expect(editOutcome(refused, [])).toEqual({ state: 'refunded', likeness: false });
    const refunded = generationOf({ id: 'G1', status: 'succeeded', creditsReserved: 1, creditsRefunded: 1 });
    expect(editOutcome(refunded, [versionOf(1)])).toEqual({ state: 'refunded', likeness: false });
  });
});
