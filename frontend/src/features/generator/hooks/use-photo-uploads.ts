import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client';
import { track } from '../../../lib/analytics';
import { requestUploads } from '../api/create-uploads';
import { postToPresigned } from '../api/post-to-presigned';
import { GENERATOR_TEXT } from '../utils/content';
import { withPick, type DropReport } from '../utils/drop-report';
import { effectiveType, formatMegabytes, MAX_FILE_BYTES, selectFiles } from '../utils/file-rules';
import { preparePhoto } from '../utils/image-prep';
import { sniffPhoto } from '../utils/file-signature';
import { previewDataUrl } from '../utils/wizard-draft';

/** Where one photo is: being converted/downscaled, being sent, safely stored, or failed (retry or remove). */
export type PhotoStatus = 'preparing' | 'uploading' | 'uploaded' | 'failed';

/** One photo of step 1, as the thumbnails show it. */
export interface Photo {
  id: string;
  name: string;
  /** Object URL of the prepared JPEG (or of the original), once there is one. */
  previewUrl: string | null;
  status: PhotoStatus;
  /** Upload progress, 0-100. */
  progress: number;
  /** The uploaded object's key, once stored. */
  key: string | null;
  error: string | null;
  /** A small `data:` copy of the preview, made once stored, so the wizard's draft can show it after leaving. */
  previewDataUrl?: string | null;
}

/** What {@link usePhotoUploads} offers step 1 and the generate call. */
export interface PhotoUploads {
  photos: Photo[];
  /**
   * Applies docs/product-spec.md §5 to dropped/picked files, lists the ones it leaves out in {@link report} and
   * uploads the accepted ones in parallel.
   */
  add: (files: readonly File[]) => void;
  /** The files the picks since the last dismissal left out, with what they added; null when there are none. */
  report: DropReport | null;
  /** The customer has read the list: it goes until a pick leaves a file out again. */
  dismissReport: () => void;
  remove: (id: string) => void;
  retry: (id: string) => void;
  /** Removes every photo (cancels uploads, frees previews). */
  clear: () => void;
  /** Keys of the stored photos, in the order they were added. */
  uploadedKeys: string[];
  /** Photos still being prepared or sent. */
  pendingCount: number;
}

interface Source {
  file: File;
  controller: AbortController;
  prepared?: { blob: Blob; contentType: string };
  urls: string[];
  /** Its last attempt failed for want of a network: it is sent again when the browser is back online. */
  offline?: boolean;
}

/** Decoding and re-encoding is memory-hungry (a 12 MP bitmap is ~48 MB): at most this many at once. */
const PREPARE_CONCURRENCY = 3;

function createLimiter(limit: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      queue.shift()?.();
    }
  };
}

let nextId = 0;
const newPhotoId = () => `photo-${Date.now().toString(36)}-${(nextId += 1)}`;

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** The name the stored object is sent under: the original name with a `.jpg` extension once re-encoded. */
function uploadName(file: File, contentType: string): string {
  if (contentType !== 'image/jpeg') return file.name || 'photo';
  const base = (file.name || 'photo').replace(/\.[^.]+$/, '');
  return `${base}.jpg`;
}

/**
 * Step 1's photos (docs/product-spec.md §2, §5): validation and the list of files left out, in-browser preparation (HEIC → JPEG, EXIF orientation,
 * ≤ 2048 px, see image-prep.ts), a presigned POST per photo with per-file progress, thumbnails as object URLs
 * (revoked on remove, clear and unmount), retry and remove. Uploads run in parallel.
 */
export function usePhotoUploads(initial: readonly Photo[] = []): PhotoUploads {
  // Photos restored from the wizard's draft are already stored: nothing to prepare or send.
  const [photos, setPhotos] = useState<Photo[]>(() => [...initial]);
  const sources = useRef(new Map<string, Source>());
  const [limit] = useState(() => createLimiter(PREPARE_CONCURRENCY));
  const [report, setReport] = useState<DropReport | null>(null);
  const dismissReport = useCallback(() => setReport(null), []);

  const update = useCallback((id: string, patch: Partial<Photo>) => {
    setPhotos((current) => current.map((photo) => (photo.id === id ? { ...photo, ...patch } : photo)));
  }, []);

  /** Prepares (once) and uploads one photo; true when it is stored. */
  const upload = useCallback(
    async (id: string): Promise<boolean> => {
      const source = sources.current.get(id);
      if (!source) return false;
      const { file, controller } = source;
      const { signal } = controller;
      try {
        if (!source.prepared) {
          update(id, { status: 'preparing', progress: 0, error: null });
          source.prepared = await limit(async () => {
            if (signal.aborted) throw new DOMException('Removed', 'AbortError');
            try {
              return await preparePhoto(file);
            } catch (error) {
              // A format this browser cannot decode: send the original; the server decodes and checks it.
              console.warn(`Could not prepare ${file.name} in the browser; uploading the original.`, error);
              return { blob: file, contentType: effectiveType(file) };
            }
          });
          if (signal.aborted) return false;
          const previewUrl = URL.createObjectURL(source.prepared.blob);
          source.urls.push(previewUrl);
          update(id, { previewUrl });
        }
        const { blob, contentType } = source.prepared;
        if (blob.size > MAX_FILE_BYTES) {
          update(id, {
            status: 'failed',
            error: GENERATOR_TEXT.tooLarge(file.name || 'This photo', formatMegabytes(blob.size)),
          });
          return false;
        }
        update(id, { status: 'uploading', progress: 0, error: null });
        const batch = await requestUploads([{ contentType, size: blob.size }], signal);
        const target = batch.uploads[0];
        if (!target) throw new ApiError(500, 'UPLOAD_FAILED', 'The photo could not be uploaded.');
        await postToPresigned(
          target,
          blob,
          uploadName(file, contentType),
          (progress) => update(id, { progress }),
          signal,
        );
        update(id, { status: 'uploaded', progress: 100, key: target.key, error: null });
        void previewDataUrl(blob).then((previewData) => {
          if (previewData) update(id, { previewDataUrl: previewData });
        });
        return true;
      } catch (error) {
        if (isAbort(error) || signal.aborted) return false;
        // Status 0: the request never reached a server (api-client.ts, post-to-presigned.ts).
        source.offline = error instanceof ApiError && error.status === 0;
        const message =
          error instanceof ApiError ? error.message : 'The photo could not be uploaded. Please try again.';
        update(id, { status: 'failed', error: message });
        return false;
      }
    },
    [limit, update],
  );

  // The count when the sniffing of a drop ends (it is awaited), not when the drop began.
  const count = useRef(photos.length);
  useEffect(() => {
    count.current = photos.length;
  }, [photos.length]);

  const add = useCallback(
    (files: readonly File[]) => {
      void (async () => {
        // A renamed PDF has an image type by its name only: its bytes decide before a tile calls it a photo.
        const sniffed = await Promise.all(files.map((file) => sniffPhoto(file)));
        const bytesArePhoto = (file: File) => sniffed[files.indexOf(file)] !== null;
        const { accepted, refused, note } = selectFiles(count.current, files, bytesArePhoto);
        // Listed under the dropzone until dismissed, not toasted: a toast is gone in 4 s, and the success toast that
        // followed hid it (issue 35).
        setReport((current) => withPick(current, { added: accepted.length, refused, note }));
        if (accepted.length === 0) return;

        const added: Photo[] = accepted.map((file) => {
          const id = newPhotoId();
          sources.current.set(id, { file, controller: new AbortController(), urls: [] });
          return {
            id,
            name: file.name,
            previewUrl: null,
            status: 'preparing',
            progress: 0,
            key: null,
            error: null,
          };
        });
        count.current += added.length;
        setPhotos((current) => [...current, ...added]);

        const results = await Promise.all(added.map((photo) => upload(photo.id)));
        const stored = results.filter(Boolean).length;
        const failed = added.filter(
          (photo, i) =>
            !results[i] &&
            sources.current.has(photo.id) &&
            !sources.current.get(photo.id)?.controller.signal.aborted,
        ).length;
        // "Uploaded" only once the storage accepted the photos (the presigned POST answered 204), and only for a pick
        // that left nothing out: that pick's count is in the list under the dropzone, which no toast may upstage.
        if (stored > 0 && refused.length === 0) toast.success(GENERATOR_TEXT.filesAdded(stored));
        if (stored > 0) track('upload_completed', { count: stored, failed });
        if (failed > 0) {
          toast.error(GENERATOR_TEXT.uploadFailed(failed), {
            description: 'Retry them, or remove them and add other photos.',
          });
        }
      })();
    },
    [upload],
  );

  const forget = useCallback((id: string) => {
    const source = sources.current.get(id);
    if (!source) return;
    source.controller.abort();
    source.urls.forEach((url) => URL.revokeObjectURL(url));
    sources.current.delete(id);
  }, []);

  const remove = useCallback(
    (id: string) => {
      forget(id);
      setPhotos((current) => current.filter((photo) => photo.id !== id));
    },
    [forget],
  );

  const retry = useCallback(
    (id: string) => {
      const source = sources.current.get(id);
      if (!source) return;
      source.controller = new AbortController();
      void upload(id).then((ok) => {
        if (ok) toast.success(GENERATOR_TEXT.filesAdded(1));
      });
    },
    [upload],
  );

  // Back online: the photos that failed for want of a network go up again by themselves, as the offline banner
  // promises (components/OfflineBanner.tsx).
  useEffect(() => {
    const resume = () => {
      const ids = [...sources.current].flatMap(([id, source]) => (source.offline ? [id] : []));
      if (ids.length === 0) return;
      ids.forEach((id) => {
        const source = sources.current.get(id);
        if (source) source.offline = false;
      });
      void Promise.all(ids.map(upload)).then((results) => {
        const stored = results.filter(Boolean).length;
        if (stored > 0) toast.success(GENERATOR_TEXT.filesAdded(stored));
      });
    };
    window.addEventListener('online', resume);
    return () => window.removeEventListener('online', resume);
  }, [upload]);

  const clear = useCallback(() => {
    [...sources.current.keys()].forEach(forget);
    setPhotos([]);
    setReport(null);
  }, [forget]);

  useEffect(() => {
    const all = sources.current;
    return () => {
      all.forEach((source) => {
        source.controller.abort();
        source.urls.forEach((url) => URL.revokeObjectURL(url));
      });
      all.clear();
    };
  }, []);

  const uploadedKeys = photos.flatMap((photo) =>
    photo.status === 'uploaded' && photo.key ? [photo.key] : [],
  );
  const pendingCount = photos.filter((p) => p.status === 'preparing' || p.status === 'uploading').length;
  return { photos, add, report, dismissReport, remove, retry, clear, uploadedKeys, pendingCount };
}
