import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { expect } from 'vitest';
import type { Generation } from '../../../frontend/src/lib/api/contracts';
import { answer, answerUrl } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, startedOf } from './fixtures';
import { expectToast } from './render';

/**
 * The generator wizard's tests' shared steps: photos to drop, the uploads answered (the API's presigned POSTs and
 * S3 behind them), the way to step 3, the progress polls and the failure toast.
 *
 * One thing the wizard does is not the network and jsdom cannot do: decoding and resizing a photo (canvas,
 * `createImageBitmap`). A wizard test replaces it with {@link imagePrep}:
 *   vi.mock('../../../frontend/src/features/generator/utils/image-prep', async () => (await import('./wizard')).imagePrep);
 */

/**
 * A wizard test's start: a fresh tab (the wizard keeps its draft in sessionStorage for the tab), a signed-in
 * customer, the uploads answered ({@link answerUploads}, returned) and every generation started.
 */
export function freshWizardTab(): ReturnType<typeof answerUploads> {
  sessionStorage.clear();
  signedIn();
  const uploads = answerUploads();
  answer('POST /api/generations', startedOf());
  return uploads;
}

/** `utils/image-prep` without a canvas: the photo goes up as it is. */
export const imagePrep = {
  preparePhoto: async (file: File) => ({ blob: file, contentType: 'image/jpeg' }),
};

/** Where the mock API's presigned POSTs point: a bucket the browser posts each photo to (with CORS). */
export const BUCKET_URL = 'http://s3/bucket';

/** A JPEG's first bytes: the wizard reads them before it calls a file a photo (a renamed PDF is refused). */
const JPEG_START = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

/** A file named `name` of `type` and `size` bytes: a JPEG's bytes for a photo's type or name, a PDF's otherwise. */
export function photo(name: string, type = 'image/jpeg', size = 1000, bytes?: BlobPart): File {
  const isPhoto = type.startsWith('image/') || /\.hei[cf]$/i.test(name);
  const file = new File([bytes ?? (isPhoto ? JPEG_START : '%PDF-1.7')], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

/** Drops `files` on step 1's file input. */
export function drop(files: File[]): void {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files } });
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': '*',
};

/**
 * `POST /api/uploads` answers a presigned POST per file, keyed `uploads/u/B/<n>` in the order asked, and the bucket
 * takes every photo (its form carries the key, as S3's policy fields do). `keyOf(fileName)` is the key the photo of
 * that name was stored under; `failNext()` makes the bucket refuse the next photo (403).
 */
export function answerUploads() {
  let count = 0;
  let failures = 0;
  const stored = new Map<string, string>();
  answer('POST /api/uploads', ({ body }) => ({
    batchId: 'B',
    uploads: (body as { files: unknown[] }).files.map(() => {
      const key = `uploads/u/B/${count++}`;
      return { key, url: BUCKET_URL, fields: { key } };
    }),
    expiresAt: '2026-01-01T00:15:00.000Z',
  }));
  answerUrl('options', BUCKET_URL, () => new HttpResponse(null, { status: 204, headers: CORS }));
  answerUrl('post', BUCKET_URL, async (request) => {
    if (failures > 0) {
      failures -= 1;
      return new HttpResponse('AccessDenied', { status: 403, headers: CORS });
    }
    // Read as text: undici's multipart parser does not take jsdom's File.
    const form = await request.text();
    const key = /name="key"\r\n\r\n([^\r]*)/.exec(form)?.[1];
    const fileName = /name="file"; filename="([^"]*)"/.exec(form)?.[1];
    if (key && fileName) stored.set(fileName, key);
    return new HttpResponse(null, { status: 204, headers: CORS });
  });
  return {
    failNext() {
      failures += 1;
    },
    keyOf(fileName: string): string | undefined {
      return stored.get(fileName);
    },
  };
}

/** Each progress poll answers the next of `polls`; once they run out, a succeeded generation. */
export function answerPolls(polls: Generation[]): void {
  answer('GET /api/generations/{id}', () => polls.shift() ?? generationOf({ status: 'succeeded' }));
}

/** Whether the step's Continue button can be pressed. */
const continueEnabled = () =>
  expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false);

/** Waits until Continue is enabled (the photos are up), then presses it. */
export async function pressContinue(): Promise<void> {
  await waitFor(continueEnabled);
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
}

/** Uploads two photos, picks a style and a background: the wizard is on step 3, ready to generate. */
export async function reachStep3(style = 'Business Casual', background = 'Office'): Promise<void> {
  drop([photo('a.jpg'), photo('b.heic', '')]);
  expect(await screen.findByText('Uploaded photos (2/10)')).toBeTruthy();
  await pressContinue();
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
  expect(screen.getByText('Step 2 of 4')).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: style }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: background }));
}

/** The wizard's failure toast, with the API's reason as its description. */
export const expectGenerateFailed = (description: string) =>
  expectToast('error', 'Failed to generate headshots. Please try again.', description);
