// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PhotoCheck } from '../../../frontend/src/features/generator/api/check-photos';
import { VerdictBadge } from '../../../frontend/src/features/generator/components/VerdictBadge';
import { checkAsShown } from '../../../frontend/src/features/generator/utils/photo-check-text';

/*
 * Step 1's `duplicate` reason: the server numbers the photo kept by its place in the check request; the wizard
 * says it with the number of the tile the customer sees (a failed or still uploading photo before it shifts them).
 */

afterEach(cleanup);

const duplicate: PhotoCheck = {
  key: 'uploads/sub/batch/3',
  verdict: 'rejected',
  score: 0,
  reasons: [
    {
      code: 'duplicate',
      message:
        "This looks like the same picture as photo 1, so we'll only use it once. Please use a different photo.",
    },
    { code: 'low_resolution', message: 'This photo is small (under 512 pixels on its short side).' },
  ],
  duplicateOf: 'uploads/sub/batch/1',
};

describe('a duplicate photo in step 1', () => {
  it('names the photo it copies by its tile number, and leaves the other reasons as they are', () => {
    const shown = checkAsShown(duplicate, (key) => (key === 'uploads/sub/batch/1' ? 2 : undefined));
    expect(shown.reasons).toEqual([
      {
        code: 'duplicate',
        message:
          "This looks like the same picture as photo 2, so we'll only use it once. Please use a different photo.",
      },
      duplicate.reasons[1],
    ]);
    // The photo kept is no longer on screen: the server's sentence stays. A check without a duplicate is unchanged.
    expect(checkAsShown(duplicate, () => undefined)).toBe(duplicate);
    const good: PhotoCheck = { key: 'k', verdict: 'good', score: 90, reasons: [] };
    expect(checkAsShown(good, () => 1)).toBe(good);
  });

  it('shows why it is not used on a tap (no hover on a phone), and hides it again on Escape', () => {
    const shown = checkAsShown(duplicate, () => 2);
    render(<VerdictBadge check={shown} index={3} />);
    const badge = screen.getByRole('button', { name: 'Photo 4: Not used. Why?' });
    expect(badge.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(badge.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(true);
    fireEvent.click(badge);
    expect(badge.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    expect(panel.textContent).toBe(
      "Not usedThis looks like the same picture as photo 2, so we'll only use it once. Please use a different photo. This photo is small (under 512 pixels on its short side).",
    );
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(badge);
    fireEvent.click(badge);
    fireEvent.pointerDown(document.body);
    expect(panel.hidden).toBe(true);
  });
});
