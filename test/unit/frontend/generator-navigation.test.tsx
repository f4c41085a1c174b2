// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as GenerationApi from '../../../frontend/src/lib/api/get-generation';
import type { ActiveGeneration } from '../../../functions/contracts/account';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { ApiError } from '../../../frontend/src/lib/api-client';
import { generationOf, headshotOf } from './fixtures';
import { renderAt } from './render';

/*
 * The wizard's place in the browser's history and its running generation (issue 27): one history entry per step,
 * a reload on step 4 shows that generation, a generation running elsewhere opens on arrival or is offered, and
 * starting another meanwhile says so instead of 'Failed to generate headshots'.
 */

const mocks = vi.hoisted(() => ({
  me: { credits: 6, activeGeneration: null as ActiveGeneration | null },
  refetched: null as ActiveGeneration | null,
  toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() },
  api: {
    requestUploads: vi.fn(),
    postToPresigned: vi.fn(),
    createGeneration: vi.fn(),
    getGeneration: vi.fn(),
  },
}));

vi.mock('sonner', () => ({ toast: mocks.toast }));
vi.mock('../../../frontend/src/lib/api/get-me', () => ({
  useMe: () => ({
    data: mocks.me,
    isPending: false,
    refetch: async () => ({ data: { ...mocks.me, activeGeneration: mocks.refetched } }),
  }),
  meQueryKey: ['me'],
}));
vi.mock('../../../frontend/src/components/CreditsBadge', () => ({
  CreditsBadge: () => <a href="/pricing">{mocks.me.credits} credits</a>,
}));
vi.mock('../../../frontend/src/features/generator/api/create-uploads', () => ({
  requestUploads: mocks.api.requestUploads,
}));
vi.mock('../../../frontend/src/features/generator/api/post-to-presigned', () => ({
  postToPresigned: mocks.api.postToPresigned,
}));
vi.mock('../../../frontend/src/features/generator/api/create-generation', () => ({
  createGeneration: mocks.api.createGeneration,
}));
vi.mock('../../../frontend/src/lib/api/get-generation', async (importOriginal) => ({
  ...(await importOriginal<typeof GenerationApi>()),
  getGeneration: mocks.api.getGeneration,
}));
vi.mock('../../../frontend/src/features/generator/utils/image-prep', () => ({
  preparePhoto: async (file: File) => ({ blob: file, contentType: 'image/jpeg' }),
}));

const running = (id = 'GEN9', patch: Partial<ActiveGeneration> = {}): ActiveGeneration => ({
  id,
  status: 'running',
  progress: 53,
  headshotsExpected: 6,
  regeneratedFrom: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...patch,
});

let uploadCount = 0;
beforeEach(() => {
  sessionStorage.clear();
  mocks.me = { credits: 6, activeGeneration: null };
  mocks.refetched = null;
  uploadCount = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  mocks.api.requestUploads.mockImplementation(async () => ({
    batchId: 'B',
    uploads: [{ key: `uploads/u/B/${uploadCount++}`, url: 'http://s3/bucket', fields: {} }],
    expiresAt: '',
  }));
  mocks.api.postToPresigned.mockResolvedValue(undefined);
  mocks.api.createGeneration.mockResolvedValue({ id: 'GEN1', status: 'queued', progress: 5, credits: 0 });
  mocks.api.getGeneration.mockImplementation(async (id: string) => generationOf({ id, progress: 45 }));
});
afterEach(() => vi.clearAllMocks());

const renderWizardAt = (path = '/generator') =>
  renderAt(path, { element: <GeneratorPage />, route: '/generator', history: ['/'] }).router;

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

async function uploadAndContinue() {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  // A real JPEG's first bytes: the wizard reads them before uploading (a renamed PDF is refused).
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
  fireEvent.change(input, { target: { files: [new File([jpeg], 'a.jpg', { type: 'image/jpeg' })] } });
  expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
  const cont = screen.getByRole('button', { name: 'Continue' });
  await waitFor(() => expect((cont as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(cont);
}

describe('one history entry per step', () => {
  it("Continue adds an entry (?step=N) and the browser's Back returns to the step before, not out", async () => {
    const router = renderWizardAt();
    await waitFor(() => expect(router.state.location.search).toBe('?step=1'));
    await uploadAndContinue();
    expect(await heading('Choose your style')).toBeTruthy();
    expect(router.state.location.search).toBe('?step=2');
    fireEvent.click(screen.getByRole('radio', { name: 'Creative' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await heading('Choose your background')).toBeTruthy();
    expect(router.state.location.search).toBe('?step=3');

    // The phone's Back gesture is a history POP: step 2, with no "Leave the generator?" question.
    await router.navigate(-1);
    expect(await heading('Choose your style')).toBeTruthy();
    expect(screen.queryByText('Leave the generator?')).toBeNull();
    expect((screen.getByRole('radio', { name: 'Creative' }) as HTMLInputElement).checked).toBe(true);

    // The header's Back also walks the same entries back: step 1, then the page before the wizard.
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await heading('Upload your photos')).toBeTruthy();
    expect(router.state.location.search).toBe('?step=1');

    // Leaving the wizard with photos uploaded is still asked about.
    await router.navigate(-1);
    expect(await screen.findByText('Leave the generator?')).toBeTruthy();
  });

  it('a step the photos and choices do not allow yet shows the furthest one they do', async () => {
    const router = renderWizardAt('/generator?step=3');
    expect(await heading('Upload your photos')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?step=1'));
  });
});

describe('the running generation', () => {
  it('a reload on step 4 shows that generation (its id is in the URL), then its results', async () => {
    mocks.api.getGeneration
      .mockResolvedValueOnce(generationOf({ id: 'GEN7', progress: 45 }))
      .mockResolvedValue(
        generationOf({
          id: 'GEN7',
          status: 'succeeded',
          stage: 'done',
          progress: 100,
          headshots: [0, 1, 2, 3, 4, 5].map((slot) => headshotOf(slot)),
        }),
      );
    renderWizardAt('/generator?step=4&generation=GEN7');
    expect(await heading('Generating your headshots')).toBeTruthy();
    expect(mocks.api.getGeneration).toHaveBeenCalledWith('GEN7', expect.anything());
    expect(await heading('Your headshots are ready!')).toBeTruthy();
  });

  it('opens on arrival when it was started in another tab or on another device', async () => {
    mocks.me.activeGeneration = running('GEN9');
    const router = renderWizardAt();
    expect(await heading('Generating your headshots')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?step=4&generation=GEN9'));
  });

  it('a regeneration running does not take over the wizard', async () => {
    mocks.me.activeGeneration = running('GEN9', { headshotsExpected: 1, regeneratedFrom: 'H1' });
    renderWizardAt();
    expect(await heading('Upload your photos')).toBeTruthy();
    expect(screen.queryByTestId('active-generation')).toBeNull();
  });

  it('is offered above steps 1-3 when the URL names a step', async () => {
    mocks.me.activeGeneration = running('GEN9', { progress: 61 });
    const router = renderWizardAt('/generator?step=1');
    const notice = await screen.findByTestId('active-generation');
    expect(notice.textContent).toContain('Your headshots are being created (61%).');
    fireEvent.click(screen.getByRole('button', { name: 'See progress' }));
    await waitFor(() => expect(router.state.location.search).toBe('?step=4&generation=GEN9'));
  });

  it('starting another meanwhile says so and shows the one running, not "Failed to generate headshots"', async () => {
    const message =
      'Your headshots are still being created. You can start a new generation as soon as they are ready.';
    mocks.api.createGeneration.mockRejectedValue(
      new ApiError(429, 'QUOTA_EXCEEDED', message, { quota: 'generations-in-flight', retryAfterSeconds: 30 }),
    );
    mocks.refetched = running('GEN5');
    const router = renderWizardAt();
    await uploadAndContinue();
    fireEvent.click(await screen.findByRole('radio', { name: 'Professional' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Studio' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await waitFor(() => expect(mocks.toast.info).toHaveBeenCalledWith(message));
    await waitFor(() => expect(router.state.location.search).toBe('?step=4&generation=GEN5'));
    expect(mocks.toast.error).not.toHaveBeenCalled();
  });
});

describe('Regenerate on the results', () => {
  it('at 0 credits every Regenerate is disabled and one note says why, with a way to buy credits', async () => {
    mocks.me = { credits: 0, activeGeneration: null };
    mocks.api.getGeneration.mockResolvedValue(
      generationOf({
        id: 'GEN7',
        status: 'succeeded',
        stage: 'done',
        progress: 100,
        headshots: [0, 1].map((slot) => headshotOf(slot)),
      }),
    );
    renderWizardAt('/generator?step=4&generation=GEN7');
    expect(await heading('Your headshots are ready!')).toBeTruthy();
    const note = screen.getByTestId('regenerate-reason');
    expect(note.textContent).toContain('Regenerating needs 1 credit; you have 0.');
    expect(screen.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/pricing');
    const buttons = screen.getAllByRole('button', { name: /^Regenerate \(1 credit\)/ });
    expect(buttons).toHaveLength(2);
    for (const button of buttons) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expect(button.getAttribute('aria-describedby')).toBe(note.id);
    }
  });
});
