import { apiCall } from '../api-client';
import { generationSchema, type Generation, type GenerationStatus, type Headshot } from './contracts';

export type { Generation, GenerationStatus, Headshot };

/** True for `succeeded`, `partial` and `failed`: stop polling. */
export function isFinished(status: GenerationStatus | undefined): boolean {
  return status === 'succeeded' || status === 'partial' || status === 'failed';
}

/**
 * `GET /api/generations/{id}`: a generation's progress and the headshots saved so far. Polled by
 * `hooks/use-generation`.
 * @throws {ApiError} 404 for an unknown (or another user's) generation; `INVALID_RESPONSE` for an unexpected answer
 */
export function getGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
  return apiCall(`/generations/${encodeURIComponent(id)}`, generationSchema, { signal });
}
