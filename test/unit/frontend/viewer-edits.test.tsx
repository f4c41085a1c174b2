// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { HeadshotCard } from '../../../frontend/src/components/HeadshotCard';
import { HeadshotViewer } from '../../../frontend/src/features/dashboard/components/HeadshotViewer';
import type { Generation, HeadshotVersion } from '../../../frontend/src/lib/api/contracts';
import { answer, meOf, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, headshotOf, startedOf } from './fixtures';
import { renderAt } from './render';
import { versionOf } from './version-fixtures';

/* The viewer's edits and versions (docs/product-spec.md §2 "Edit a headshot"): an edit started from the sheet is
   followed to its new version, selected in 'Versions'; a refunded one says so; a version's files and deletion. */

beforeEach(() => signedIn());

const headshot = headshotOf(0, { id: 'H1', versionCount: 1 });

/** The viewer of H1, whose versions are `versions()` at each read, and the edit's generation `generation()`. */
function renderViewer(versions: () => HeadshotVersion[], generation?: () => Generation) {
  answer('GET /api/me', meOf({ credits: 3 }));
  answer('GET /api/headshots/{id}/versions', () => ({ versions: versions() }));
  if (generation) answer('GET /api/generations/{id}', () => generation());
  answer('POST /api/headshots/{id}/edits', startedOf({ id: 'G2', creditsReserved: 1, credits: 2 }));
  return renderAt('/dashboard', {
    element: (
      <HeadshotViewer
        headshot={headshot}
        onClose={() => {}}
        onToggleFavorite={() => {}}
        onDownload={() => {}}
      />
    ),
  });
}

/** Opens 'Edit', picks Outfit → Blazer, confirms. */
async function editOutfit() {
  fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
  const sheet = await screen.findByRole('dialog', { name: 'Edit this headshot' });
  fireEvent.click(within(sheet).getByRole('radio', { name: 'Outfit' }));
  fireEvent.click(within(sheet).getByRole('radio', { name: 'Blazer' }));
  const confirm = within(sheet).getByRole('button', { name: 'Edit (1 credit)' }) as HTMLButtonElement;
  await waitFor(() => expect(confirm.disabled).toBe(false));
  fireEvent.click(confirm);
}

const strip = () => within(screen.getByTestId('versions-strip'));

describe('the viewer: edits and versions', () => {
  it('follows an edit of the selected version to its new version, which it selects once delivered', async () => {
    const v1 = versionOf(1, {
      edit: { kind: 'background', background: { type: 'transparent' } },
      transparent: true,
    });
    const v2 = versionOf(2, { generationId: 'G2', edit: { kind: 'outfit', outfit: 'blazer' } });
    let finished = false;
    renderViewer(
      () => (finished ? [v1, v2] : [v1]),
      () =>
        generationOf({
          id: 'G2',
          headshotsExpected: 1,
          creditsReserved: 1,
          ...(finished ? { status: 'succeeded', progress: 100 } : { status: 'running', progress: 40 }),
        }),
    );
    await screen.findByTestId('versions-strip');
    fireEvent.click(strip().getByRole('button', { name: 'v1: Background: transparent' }));
    expect(screen.getByText('PNG with transparency', { exact: false })).toBeTruthy();
    await editOutfit();
    await waitFor(() =>
      expect(requestsTo('POST /api/headshots/{id}/edits')[0]?.body).toEqual({
        edit: { kind: 'outfit', outfit: 'blazer' },
        versionId: 'V1',
      }),
    );
    await screen.findByText('40%');
    expect((screen.getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true);
    finished = true;
    await screen.findByText('Your new version is ready.', undefined, { timeout: 5000 });
    const pressed = strip().getByRole('button', { name: 'v2: Outfit: blazer' });
    await waitFor(() => expect(pressed.getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByRole('img', { name: /v2: Outfit: blazer$/ }).getAttribute('src')).toBe(
      'https://s3/i/V2',
    );
  });

  it("shows the model's latest partial image marked 'Preview' while the edit runs, replaced only once delivered", async () => {
    const v1 = versionOf(1, { generationId: 'G2', edit: { kind: 'outfit', outfit: 'blazer' } });
    let step = 0;
    renderViewer(
      () => (step === 2 ? [v1] : []),
      () =>
        generationOf({
          id: 'G2',
          headshotsExpected: 1,
          creditsReserved: 1,
          ...(step === 2 ? { status: 'succeeded', progress: 100 } : { status: 'running', progress: 60 }),
          partialPreviews:
            step === 0
              ? [{ slot: 0, url: 'https://s3/p/0', index: 0 }]
              : step === 1
                ? [{ slot: 0, url: 'https://s3/p/1', index: 1 }]
                : [],
        }),
    );
    await editOutfit();
    const preview = await screen.findByTestId('edit-partial-preview');
    expect(preview.getAttribute('src')).toBe('https://s3/p/0');
    expect(preview.getAttribute('alt')).toBe('Preview: the edit is still being made and checked');
    expect(screen.getByTestId('edit-preview-mark').textContent).toBe('Preview');
    step = 1;
    await waitFor(
      () => expect(screen.getByTestId('edit-partial-preview').getAttribute('src')).toBe('https://s3/p/1'),
      {
        timeout: 5000,
      },
    );
    step = 2;
    await screen.findByText('Your new version is ready.', undefined, { timeout: 5000 });
    expect(screen.queryByTestId('edit-partial-preview')).toBeNull();
    expect(screen.queryByTestId('edit-preview-mark')).toBeNull();
    expect(screen.getByRole('img', { name: /v1: Outfit: blazer$/ }).getAttribute('src')).toBe(
      'https://s3/i/V1',
    );
  });

  it('says a refused edit was not delivered and its credit refunded, and adds no version', async () => {
    renderViewer(
      () => [],
      () =>
        generationOf({
          id: 'G2',
          status: 'failed',
          headshotsExpected: 1,
          creditsReserved: 1,
          creditsRefunded: 1,
          error: { code: 'LIKENESS_MISMATCH', message: 'Not like you.' },
        }),
    );
    await editOutfit();
    const alert = await screen.findByText(/This edit was not delivered/);
    expect(alert.textContent).toBe(
      'This edit was not delivered: it did not look enough like you. Your credit has been refunded.',
    );
    expect(screen.queryByTestId('versions-strip')).toBeNull();
  });

  it('deletes the selected version after asking, and shows the original again; the original has no Delete version', async () => {
    let versions = [versionOf(1), versionOf(2)];
    answer('DELETE /api/headshots/{id}/versions/{versionId}', ({ params }) => {
      versions = versions.filter((v) => v.id !== params.versionId);
      return undefined;
    });
    renderViewer(() => versions);
    await screen.findByTestId('versions-strip');
    expect(strip().getByRole('button', { name: 'Original' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Delete version' })).toBeNull();
    fireEvent.click(strip().getByRole('button', { name: 'v2: Upscale' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete version' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete v2?' });
    expect(confirm.textContent).toContain('The original and the other versions are kept.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete version' }));
    await waitFor(() => expect(strip().queryByRole('button', { name: 'v2: Upscale' })).toBeNull());
    expect(requestsTo('DELETE /api/headshots/{id}/versions/{versionId}')[0]?.params).toEqual({
      id: 'H1',
      versionId: 'V2',
    });
    expect(strip().getByRole('button', { name: 'Original' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("counts a headshot's versions on its gallery card, and says nothing without any", async () => {
    const card = (versionCount: number | undefined) => (
      <HeadshotCard
        headshot={headshotOf(0, { id: `H${versionCount}`, versionCount })}
        placement="gallery"
        onOpen={() => {}}
        actions={null}
      />
    );
    renderAt('/dashboard', { element: <ul>{[2, 1, 0, undefined].map((n) => card(n))}</ul> });
    const counts = await screen.findAllByTestId('version-count');
    expect(counts.map((c) => c.textContent)).toEqual(['2 versions', '1 version']);
  });
});
