import { apiFetch } from '../api-client';

/** Where a generation is; the last three never change again. */
export type GenerationStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';

/** True for `succeeded`, `partial` and `failed`: stop polling. */
export function isFinished(status: GenerationStatus | undefined): boolean {
  return status === 'succeeded' || status === 'partial' || status === 'failed';
}

/** One saved headshot; URLs are presigned and expire (see {@link Generation.urlsExpireAt}). */
export interface Headshot {
  id: string;
  slot: number;
  style: string;
  background: string;
  isFavorite: boolean;
  /** Likeness to the customer's photos, 0-100 (null for headshots made before it was measured). */
  likeness?: number | null;
  createdAt: string;
  /** WebP, ≤ 384 px. */
  thumbnailUrl: string;
  /** 1024×1024 JPEG. */
  imageUrl: string;
  /** The same JPEG served as an attachment named {@link fileName}. */
  downloadUrl: string;
  fileName: string;
}

/** `GET /api/generations/{id}` answer. */
export interface Generation {
  id: string;
  status: GenerationStatus;
  stage: string;
  /** 0-100. */
  progress: number;
  style: string;
  background: string;
  /** Why it failed; `message` is written for people. */
  error: { code: string; message: string } | null;
  /**
   * The place in the image provider's line, shared by every customer: `position` 1 = next up (position − 1
   * generations ahead), 0 = running; `etaSeconds` until it starts. `null` before it reaches the line and once it ended.
   */
  queue?: { position: number; etaSeconds: number } | null;
  headshotsExpected: number;
  /** Saved so far, in slot order. */
  headshots: Headshot[];
  creditsReserved: number;
  creditsRefunded: number;
  urlsExpireAt: string;
}

/** Reads a generation's progress and the headshots saved so far. */
export function getGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
  return apiFetch<Generation>(`/generations/${encodeURIComponent(id)}`, { signal });
}
