import { ApiError } from '../../../lib/api-client';
import type { PresignedUpload } from './create-uploads';

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
