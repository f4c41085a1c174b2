import type { UseQueryResult } from '@tanstack/react-query';
import type { ApiError } from '../lib/api-client';
import type { Generation } from '../lib/api/get-generation';
import { useGeneration } from './use-generation';

/**
 * How far a generation is, the one way every screen says it (docs/product-spec.md §2 step 4, issue 27 "Resume
 * anywhere"): the wizard's step 4 and its header, the dashboard's running generation, and the wizard's notice of a
 * generation running elsewhere all read their percent, place in line and count of saved headshots from here.
 */

/** Progress shown before the first poll answers: the credits are already reserved (docs/product-spec.md §4: progress 5). */
export const INITIAL_PROGRESS = 5;

/** A percentage clamped to 0-100 and rounded, for the progress bar. */
export function clampPercent(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/**
 * The percent shown for a generation (0-100): 100 once it delivered (`succeeded`, `partial`), else its progress, or
 * `fallbackProgress` before the first answer (5 in the wizard; the dashboard has `GET /api/me`'s).
 */
export function generationPercentOf(
  generation: { status: string; progress?: number } | undefined,
  fallbackProgress: number = INITIAL_PROGRESS,
): number {
  if (generation?.status === 'succeeded' || generation?.status === 'partial') return 100;
  return clampPercent(generation?.progress ?? fallbackProgress);
}

/** What a screen shows of a running generation. */
export interface GenerationProgress {
  /** 0-100 ({@link generationPercentOf}). */
  percent: number;
  /** Its place in line while it waits for the image provider (position 1 = next), else null. */
  waiting: { position: number; etaSeconds: number } | null;
  /** Headshots saved so far. */
  saved: number;
  /** Headshots it makes (6, or 1 for a regeneration). */
  expected: number;
}

/** What is known of a generation before its first poll answers: its progress and how many headshots it makes. */
export interface ProgressFallback {
  progress: number;
  headshotsExpected: number;
}

/** {@link GenerationProgress} of the latest answer, or of `fallback` before the first one. */
export function generationProgressOf(
  generation: Generation | undefined,
  fallback: ProgressFallback,
): GenerationProgress {
  const queue = generation?.queue;
  return {
    percent: generationPercentOf(generation, fallback.progress),
    waiting: queue && queue.position > 0 ? queue : null,
    saved: generation?.headshots.length ?? 0,
    expected: generation?.headshotsExpected ?? fallback.headshotsExpected,
  };
}

/**
 * Polls the generation `id` ({@link useGeneration}: every 1.5 s until it ends) and says how far it is; the query
 * itself comes along for the screen's other needs (the headshots, the status, a 404).
 */
export function useGenerationProgress(
  id: string | null,
  fallback: ProgressFallback,
): GenerationProgress & { query: UseQueryResult<Generation, ApiError> } {
  const query = useGeneration(id);
  return { ...generationProgressOf(query.data, fallback), query };
}
