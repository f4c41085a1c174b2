// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as GenerationApi from '../../../frontend/src/lib/api/get-generation';
import type { Headshot } from '../../../frontend/src/lib/api/get-generation';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { ApiError } from '../../../frontend/src/lib/api-client';
import { generationOf, headshotOf } from './fixtures';
import { renderAt } from './render';

/*
 * The wizard in jsdom with the network edge mocked, when the likeness cap stops a generation
 * (docs/decisions/004-likeness-retry-cap.md): the results screen says why and asks for other photos instead of
 * sending the customer back to generate again; a start refused for the same photos goes back to step 1.
 */

const mocks = vi.hoisted(() => ({
  credits: 6 as number | undefined,
  toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() },
  api: {
    requestUploads: vi.fn(),
    postToPresigned: vi.fn(),
    createGeneration: vi.fn(),
    getGeneration: vi.fn(),
    setFavorite: vi.fn(),
    downloadHeadshot: vi.fn(),
  },
}));

vi.mock('sonner', () => ({ toast: mocks.toast }));
vi.mock('../../../frontend/src/lib/api/get-me', () => ({
  useMe: () => ({ data: mocks.credits === undefined ? undefined : { credits: mocks.credits } }),
  meQueryKey: ['me'],
}));
vi.mock('../../../frontend/src/components/CreditsBadge', () => ({
  CreditsBadge: () => <a href="/pricing">{mocks.credits} credits</a>,
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
vi.mock('../../../frontend/src/lib/api/update-headshot', () => ({ updateHeadshot: mocks.api.setFavorite }));
vi.mock('../../../frontend/src/lib/download-headshot', () => ({
  downloadHeadshot: mocks.api.downloadHeadshot,
}));
vi.mock('../../../frontend/src/lib/api/get-generation', async (importOriginal) => ({
  ...(await importOriginal<typeof GenerationApi>()),
  getGeneration: mocks.api.getGeneration,
}));
vi.mock('../../../frontend/src/features/generator/utils/image-prep', () => ({
  preparePhoto: async (file: File) => ({ blob: file, contentType: 'image/jpeg' }),
}));

let uploadCount = 0;

beforeEach(() => {
  // The wizard keeps its draft in sessionStorage for the tab; every test starts with a fresh tab.
  sessionStorage.clear();
  mocks.credits = 6;
  uploadCount = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  mocks.api.requestUploads.mockImplementation(async () => ({
    batchId: 'B',
    uploads: [{ key: `uploads/u/B/${uploadCount++}`, url: 'http://s3/bucket', fields: {} }],
    expiresAt: '',
  }));
  mocks.api.postToPresigned.mockImplementation(async (_t, _b, _n, onProgress: (p: number) => void) => {
    onProgress(50);
    onProgress(100);
  });
  mocks.api.createGeneration.mockResolvedValue({ id: 'GEN1', status: 'queued', progress: 5, credits: 0 });
  mocks.api.setFavorite.mockResolvedValue({});
});

afterEach(() => {
  vi.clearAllMocks();
});

function renderWizard() {
  return renderAt('/generator', { element: <GeneratorPage /> }).router;
}

const photo = (name: string, type = 'image/jpeg', size = 1000) => {
  // A JPEG's first bytes: the wizard checks them before it calls a file uploaded.
  const f = new File(
    [new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1])],
    name,
    { type },
  );
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

function drop(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files } });
}

const headshot = (slot: number, style: Headshot['style'] = 'business-casual'): Headshot =>
  headshotOf(slot, { style });
const generation = generationOf;

/** The wizard's failure toast, with the API's reason as its description. */
async function expectGenerateFailed(description: string) {
  await waitFor(() =>
    expect(mocks.toast.error).toHaveBeenCalledWith('Failed to generate headshots. Please try again.', {
      description,
    }),
  );
}

/** Each poll answers the next of `polls`; once they run out, a succeeded generation. */
function answerPolls(polls: ReturnType<typeof generationOf>[]) {
  mocks.api.getGeneration.mockImplementation(
    async () => polls.shift() ?? generation({ status: 'succeeded' }),
  );
}

/** Uploads two photos, picks a style and a background: the wizard is on step 3, ready to generate. */
async function reachStep3(style = 'Business Casual', background = 'Office') {
  drop([photo('a.jpg'), photo('b.heic', '')]);
  expect(await screen.findByText('Uploaded photos (2/10)')).toBeTruthy();
  const cont = screen.getByRole('button', { name: 'Continue' });
  await waitFor(() => expect((cont as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(cont);
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
  expect(screen.getByText('Step 2 of 4')).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: style }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: background }));
}

const mismatch =
  "Your headshots didn't look enough like you, so we stopped instead of trying again with these photos. 6 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.";

describe('the likeness cap on the results screen', () => {
  it('a stopped generation stays on step 4 with the reason and "Upload different photos" (style kept)', async () => {
    answerPolls([
      generation({ progress: 45 }),
      generation({
        status: 'failed',
        stage: 'failed',
        progress: 45,
        error: { code: 'LIKENESS_MISMATCH', message: mismatch },
        creditsRefunded: 6,
      }),
    ]);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    const notice = await screen.findByTestId('likeness-notice');
    expect(within(notice).getByRole('heading', { level: 1 }).textContent).toBe(
      "These headshots didn't look like you",
    );
    expect(within(notice).getByText(mismatch)).toBeTruthy();
    expect(screen.getByText('Step 4 of 4')).toBeTruthy();
    // Not bounced back to generate again with the same photos, and no pending tiles left.
    expect(mocks.toast.error).not.toHaveBeenCalled();
    expect(screen.queryAllByTestId('headshot-pending')).toHaveLength(0);

    fireEvent.click(within(notice).getByRole('button', { name: 'Upload different photos' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    // The style chosen before is still chosen once new photos are in.
    drop([photo('c.jpg')]);
    expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
    const cont = screen.getByRole('button', { name: 'Continue' });
    await waitFor(() => expect((cont as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(cont);
    expect(
      ((await screen.findByRole('radio', { name: 'Business Casual' })) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('a partial generation shows its headshots and the reason above them', async () => {
    const partial =
      "Some of your headshots didn't look enough like you, so we stopped instead of trying again with these photos. 3 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.";
    answerPolls([
      generation({
        status: 'partial',
        stage: 'done',
        progress: 100,
        headshots: [0, 1, 2].map((slot) => headshot(slot)),
        error: { code: 'LIKENESS_MISMATCH', message: partial },
        creditsRefunded: 3,
      }),
    ]);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Your headshots are ready!' })).toBeTruthy();
    const notice = screen.getByTestId('likeness-notice');
    expect(notice.getAttribute('role')).toBe('note');
    expect(within(notice).getByText(partial)).toBeTruthy();
    expect(screen.getAllByTestId('headshot')).toHaveLength(3);
    expect(within(notice).getByRole('button', { name: 'Upload different photos' })).toBeTruthy();
  });

  it('photos refused at the start (409 PHOTOS_DONT_MATCH) → the reason and back to step 1', async () => {
    const refused =
      "These photos didn't give us headshots that look like you, so we won't use them again. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.";
    mocks.api.createGeneration.mockRejectedValue(new ApiError(409, 'PHOTOS_DONT_MATCH', refused));
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await waitFor(() => expect(mocks.toast.error).toHaveBeenCalledWith(refused));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    // The photos stay listed so the customer can remove them and add others.
    expect(screen.getByText('Uploaded photos (2/10)')).toBeTruthy();
  });

  it('any other failure still goes back to step 3 (the cap changes nothing else)', async () => {
    answerPolls([
      generation({
        status: 'failed',
        stage: 'failed',
        error: { code: 'PROVIDER_FAILED', message: 'The image service did not deliver any.' },
        creditsRefunded: 6,
      }),
    ]);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));
    await expectGenerateFailed('The image service did not deliver any.');
    expect(screen.queryByTestId('likeness-notice')).toBeNull();
  });
});
