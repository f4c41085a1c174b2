// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { unzipSync } from 'fflate';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DownloadAllButton } from '../../../frontend/src/features/dashboard/components/DownloadAll';
import type { Headshot, HeadshotVersion } from '../../../frontend/src/lib/api/contracts';
import { VARIANT_LABELS } from '../../../frontend/src/lib/download-headshot';
import { answer, answerUrl, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { headshotOf } from './fixtures';
import { renderAt, toastsOf } from './render';

/*
 * 'Download all' (docs/product-spec.md §2 "Downloads", issue 35): the original is named for what it is, and the note
 * about headshots made before portraits and originals existed reaches only a customer who has such headshots.
 */

/** A headshot with all three files: the square, the 4:5 portrait and the original PNG at 1024 × 1280. */
function withEveryFile(slot: number, versionCount = 0): Headshot {
  const base = headshotOf(slot, { id: `N${slot}`, versionCount });
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
  for (const path of ['i', 'p', 'o', 'v']) {
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

  it("puts every version of each headshot in the ZIP, named to sort right after its headshot's files", async () => {
    /** Version `k` of headshot H0 (slot 0): its square and original, as the API names them. */
    const version = (k: number): HeadshotVersion => ({
      id: `V${k}`,
      headshotId: 'N0',
      sourceVersionId: null,
      generationId: `GEN-V${k}`,
      edit: { kind: 'upscale' },
      likeness: 90,
      preview: false,
      transparent: false,
      createdAt: '2026-01-02T00:00:00.000Z',
      thumbnailUrl: `https://s3/v/T${k}`,
      imageUrl: `https://s3/v/S${k}`,
      variants: [
        {
          variant: 'square',
          width: 1024,
          height: 1024,
          fileName: `n0-v${k}-square.jpg`,
          url: `https://s3/v/S${k}`,
        },
        {
          variant: 'original',
          width: 2560,
          height: 3200,
          fileName: `n0-v${k}-original.png`,
          url: `https://s3/v/O${k}`,
        },
      ],
    });
    answer('GET /api/headshots/{id}/versions', { versions: [version(1), version(2)] });
    const shown = await downloadEveryFile([withEveryFile(0, 2), withEveryFile(1)]);
    expect(shown).toEqual({ type: 'success', title: 'Downloaded 2 headshots as a ZIP' });
    // Only the headshot that has versions is asked for them.
    expect(requestsTo('GET /api/headshots/{id}/versions').map((r) => r.params.id)).toEqual(['N0']);
    const blob = vi.mocked(URL.createObjectURL).mock.calls.at(-1)![0] as Blob;
    const entries = Object.keys(unzipSync(new Uint8Array(await blob.arrayBuffer()))).sort();
    expect(entries).toEqual([
      'headshot-N0.jpg',
      'headshot-N1.jpg',
      'n0-original.png',
      'n0-portrait.jpg',
      'n0-v1-original.png',
      'n0-v1-square.jpg',
      'n0-v2-original.png',
      'n0-v2-square.jpg',
      'n1-original.png',
      'n1-portrait.jpg',
    ]);
  });
});
