import { ApiError, apiFetch } from '../../../lib/api-client';
import type { GenerationStatus, Headshot } from '../../../lib/api/get-generation';
import type { BackgroundId, StyleId } from '../utils/content';
import { track } from '../../../lib/analytics';

/**
 * The generator's calls: presigned photo uploads (`POST /api/uploads` then a direct multipart POST to S3), starting
 * a generation (`POST /api/generations`), its progress (`GET /api/generations/{id}`) and the favorite toggle
 * (`PATCH /api/headshots/{id}`). Contracts: functions/http/create-uploads.ts, create-generation.ts,
 * get-generation.ts.
 */

/** One presigned POST of `POST /api/uploads`. */
export interface PresignedUpload {
  /** The object key; goes to `POST /api/generations` as one of `referenceKeys`. */
  key: string;
  url: string;
  /** Form fields to send before the file, in order. */
  fields: Record<string, string>;
}

/** `POST /api/uploads` answer. */
export interface UploadBatch {
  batchId: string;
  uploads: PresignedUpload[];
  expiresAt: string;
}

/** Asks for presigned POSTs, one per file, in the same order. */
export function requestUploads(
  files: readonly { contentType: string; size: number }[],
  signal?: AbortSignal,
): Promise<UploadBatch> {
  return apiFetch<UploadBatch>('/uploads', { method: 'POST', body: { files }, signal });
}

/**
 * Sends one file to a presigned POST as `multipart/form-data`: every entry of `fields` first and the file last
 * (S3 ignores anything after the file). Uses XMLHttpRequest because `fetch` reports no upload progress.
 *
 * @param onProgress called with 0-100 as bytes go out
 * @throws {ApiError} `UPLOAD_FAILED` on a non-2xx answer or a network error; a `DOMException` `AbortError` when
 *   `signal` aborts
 */
export function postToPresigned(
  target: Pick<PresignedUpload, 'url' | 'fields'>,
  file: Blob,
  fileName: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const form = new FormData();
    for (const [name, value] of Object.entries(target.fields)) form.append(name, value);
    form.append('file', file, fileName);

    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);

    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    });
    xhr.addEventListener('load', () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else {
        reject(
          new ApiError(xhr.status, 'UPLOAD_FAILED', 'The photo could not be uploaded. Please try again.'),
        );
      }
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new ApiError(0, 'UPLOAD_FAILED', 'The photo could not be uploaded. Check your connection.'));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    xhr.open('POST', target.url);
    xhr.send(form);
  });
}

/** `POST /api/generations` body. */
export interface CreateGenerationInput {
  style: StyleId;
  background: BackgroundId;
  referenceKeys: string[];
}

/** `POST /api/generations` 202 answer. */
export interface CreatedGeneration {
  id: string;
  status: GenerationStatus;
  progress: number;
  /** The balance after the 6 credits were reserved. */
  credits: number;
}

/** Starts a generation (reserves 6 credits). 402 `INSUFFICIENT_CREDITS` has `details.credits`. */
export function createGeneration(input: CreateGenerationInput): Promise<CreatedGeneration> {
  return apiFetch<CreatedGeneration>('/generations', { method: 'POST', body: input });
}

/** Marks a headshot as favorite or not (`PATCH /api/headshots/{id}`). */
export function setFavorite(id: string, isFavorite: boolean): Promise<unknown> {
  track('favorite', { from: 'results', isFavorite });
  return apiFetch<unknown>(`/headshots/${encodeURIComponent(id)}`, { method: 'PATCH', body: { isFavorite } });
}

/** The name a downloaded headshot is saved under (docs/product-spec.md §2). */
export function headshotFileName(id: string): string {
  return `headshot-${id}.jpg`;
}

/** `GET /api/headshots/{id}/download` answer: a fresh presigned attachment URL. */
export interface HeadshotDownload {
  url: string;
  fileName: string;
  expiresAt: string;
}

/** Asks the gallery API for a fresh download URL of one headshot (valid 15 minutes). */
export function getHeadshotDownload(id: string): Promise<HeadshotDownload> {
  return apiFetch<HeadshotDownload>(`/headshots/${encodeURIComponent(id)}/download`);
}

/**
 * Saves a headshot as `headshot-{id}.jpg`. A fresh URL comes from `GET /api/headshots/{id}/download` (so a results
 * page left open past the 15 minutes of the poll's URLs still works); if that call fails, the poll's own URLs are
 * used. The image lives on another origin (S3), where the `download` attribute of a link is ignored, so the bytes
 * are fetched (the bucket's CORS allows the site) and saved from a local object URL under the right name. If that
 * fetch fails too, the presigned attachment URL (`Content-Disposition: attachment; filename="headshot-{id}.jpg"`)
 * is opened, which downloads under the same name without leaving the page.
 */
export async function downloadHeadshot(headshot: Pick<Headshot, 'id' | 'downloadUrl'>) {
  track('download', { from: 'results' });
  const fileName = headshotFileName(headshot.id);
  let url = headshot.downloadUrl;
  try {
    url = (await getHeadshotDownload(headshot.id)).url;
  } catch {
    // The poll's URL is still good for 15 minutes after the last poll.
  }
  let blob: Blob;
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    blob = await response.blob();
  } catch {
    saveFromUrl(url, fileName);
    return;
  }
  const objectUrl = URL.createObjectURL(blob);
  try {
    saveFromUrl(objectUrl, fileName);
  } finally {
    // The click has started the download; give the browser a moment before freeing the bytes.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  }
}

function saveFromUrl(href: string, fileName: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
