// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DownloadAllButton } from '../../../frontend/src/features/dashboard/components/DownloadAll';
import type { Headshot } from '../../../frontend/src/lib/api/contracts';
import { VARIANT_LABELS } from '../../../frontend/src/lib/download-headshot';
import { answer, answerUrl } from './api-mocks';
import { signedIn } from './auth-session';
import { headshotOf } from './fixtures';
import { renderAt, toastsOf } from './render';

/*
 * 'Download all' (docs/product-spec.md §2 "Downloads", issue 35): the original is named for what it is, and the note
 * about headshots made before portraits and originals existed reaches only a customer who has such headshots.
 */

/** A headshot with all three files: the square, the 4:5 portrait and the original PNG at 1024 × 1280. */
function withEveryFile(slot: number): Headshot {
  const base = headshotOf(slot, { id: `N${slot}` });
  return {
    ...base,
    variants: [
      ...base.variants,
      {
        variant: 'portrait',
        width: 1024,
        height: 1280,
        fileName: `n${slot}-portrait.jpg`,
        url: `https://s3/p/N${slot}`,
      },
      {
        variant: 'original',
        width: 1024,
        height: 1280,
        fileName: `n${slot}-original.png`,
        url: `https://s3/o/N${slot}`,
      },
    ],
  };
}

beforeEach(() => {
  signedIn();
  for (const path of ['i', 'p', 'o']) {
    answerUrl('get', `https://s3/${path}/:id`, () => HttpResponse.arrayBuffer(new ArrayBuffer(8)));
  }
  // The ZIP is saved through a link click, which jsdom would try to follow.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});

afterEach(() => vi.restoreAllMocks());

/** Opens the dialog, picks every file and builds the ZIP of `items`. */
async function downloadEveryFile(items: Headshot[]) {
  answer('GET /api/headshots', { items, nextCursor: null, stats: { total: items.length, favorites: 0 } });
  renderAt('/dashboard', { element: <DownloadAllButton filter="all" disabled={false} /> });
  fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
  const dialog = screen.getByRole('dialog', { name: 'Download all headshots' });
  fireEvent.click(within(dialog).getByRole('checkbox', { name: /Résumé/ }));
  fireEvent.click(within(dialog).getByRole('checkbox', { name: /Original \(PNG, as generated\)/ }));
  expect(dialog.textContent).not.toMatch(/made before portraits/);
  fireEvent.click(within(dialog).getByRole('button', { name: 'Download ZIP' }));
  await waitFor(() => expect(toastsOf('success')).toHaveLength(1));
  return toastsOf('success')[0]!;
}

describe("'Download all'", () => {
  it('names the original for what it is, not "full resolution"', () => {
    expect(VARIANT_LABELS.original).toBe('Original (PNG, as generated)');
    expect(Object.values(VARIANT_LABELS).join(' ')).not.toMatch(/full resolution/);
  });

  it('says nothing of older headshots to a customer who has none', async () => {
    const shown = await downloadEveryFile([withEveryFile(0), withEveryFile(1)]);
    expect(shown).toEqual({ type: 'success', title: 'Downloaded 2 headshots as a ZIP' });
  });

  it('says how many came as the square only, when some were made before portraits existed', async () => {
    const shown = await downloadEveryFile([withEveryFile(0), headshotOf(1, { id: 'OLD1' })]);
    expect(shown).toEqual({
      type: 'success',
      title: 'Downloaded 2 headshots as a ZIP',
      description:
        '1 of them was made before portraits and originals existed, so it comes as the LinkedIn square only.',
    });
  });
});
