import { describe, expect, it } from 'vitest';
import { DROP_REPORT_TEXT, withPick } from '../../../frontend/src/features/generator/utils/drop-report';

/* The list of files step 1 left out (docs/product-spec.md §5 "Refused files, listed"; issue 35 item 4). */

const pdf = { name: 'scan.jpg', reason: 'scan.jpg is not a photo. Use JPG, PNG or HEIC.' };
const big = { name: 'big.jpg', reason: 'big.jpg is 19 MB; the limit is 10 MB.' };

describe('the list of files a pick left out', () => {
  it('opens for a pick that left a file out, counting what it added and what it did not', () => {
    const report = withPick(null, { added: 1, refused: [pdf, big], note: null });
    expect(report).toEqual({ added: 1, refused: [pdf, big], note: null });
    expect(DROP_REPORT_TEXT.title(report!.added, report!.refused.length)).toBe('1 photo added, 2 not added');
  });

  it('opens for nothing when every file was added', () => {
    expect(withPick(null, { added: 3, refused: [], note: null })).toBeNull();
  });

  it('adds a later pick to the open list instead of replacing it, and a clean pick only to its count', () => {
    const first = withPick(null, { added: 1, refused: [pdf], note: null });
    const second = withPick(first, {
      added: 0,
      refused: [big],
      note: 'Please upload valid image files (max 10MB each)',
    });
    expect(second).toEqual({
      added: 1,
      refused: [pdf, big],
      note: 'Please upload valid image files (max 10MB each)',
    });
    // A clean pick keeps the list and its sentence, and its photos count as added.
    expect(withPick(second, { added: 2, refused: [], note: null })).toEqual({
      added: 3,
      refused: [pdf, big],
      note: 'Please upload valid image files (max 10MB each)',
    });
  });

  it.each([
    [0, 2, 'No photos added, 2 not added'],
    [1, 3, '1 photo added, 3 not added'],
    [4, 1, '4 photos added, 1 not added'],
  ])('words %i added and %i not added as %j', (added, notAdded, title) => {
    expect(DROP_REPORT_TEXT.title(added, notAdded)).toBe(title);
  });
});
