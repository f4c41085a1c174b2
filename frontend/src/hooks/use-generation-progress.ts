import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ApiError } from '../lib/api-client';
import type { Generation } from '../lib/api/get-generation';
import { getMe, type Me } from '../lib/api/get-me';
import { useAuth } from '../lib/auth';
import { queryKeys } from '../lib/query-keys';
import { useGeneration, useGenerationSnapshot } from './use-generation';

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

/*
 * Never backwards (issue 35 item 4: the bar jumped from 45 % to 5 % after a reload, the 5 shown before the first poll
 * answered). The server's progress only grows (functions/domain/generation-status.ts: 5 queued, 10-30 preparing, 45
 * generating, +8 per headshot saved, 100 done), so what was shown of it is a floor for the same generation: kept for
 * the tab in sessionStorage (a reload resumes there), and `GET /api/me`'s running generation (another tab or device)
 * stands in before the first poll.
 */

/** The `sessionStorage` key of the highest percent shown per generation in this tab. */
export const SHOWN_PERCENT_KEY = 'headshot-studio:generation-percent';
/** Generations remembered: one runs at a time, so a few cover a tab's history. */
const REMEMBERED = 5;

const tabStorage = () => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);

function readShown(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(tabStorage()?.getItem(SHOWN_PERCENT_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    // Unreadable (another version's shape, storage refused): nothing shown yet, as in a new tab.
    return {};
  }
}

/** The highest percent this tab showed for generation `id`, or 0. */
export function shownPercentOf(id: string): number {
  const value = readShown()[id];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Remembers `percent` as shown for `id` if it is higher than what was, keeping the latest few generations. */
export function rememberShownPercent(id: string, percent: number): void {
  const shown = readShown();
  if ((shown[id] ?? 0) >= percent) return;
  delete shown[id];
  const kept = Object.entries(shown).slice(-(REMEMBERED - 1));
  try {
    tabStorage()?.setItem(SHOWN_PERCENT_KEY, JSON.stringify(Object.fromEntries([...kept, [id, percent]])));
  } catch {
    // Storage full or refused: the bar still never goes back while the screen is open.
  }
}

/**
 * `percent` (0-100) for generation `id`, never below what this tab showed for it before: a reload resumes there, and
 * while mounted the bar only moves forward (a later answer or a stale cache cannot pull it back).
 */
export function useSteadyPercent(id: string | null, percent: number): number {
  const [highest, setHighest] = useState(() => ({ id, percent: id ? shownPercentOf(id) : 0 }));
  const floor = highest.id === id ? highest.percent : id ? shownPercentOf(id) : 0;
  const shown = Math.max(percent, floor);
  // Derived state, set while rendering (https://react.dev/reference/react/useState#storing-information-from-previous-renders).
  if (highest.id !== id || highest.percent !== shown) setHighest({ id, percent: shown });
  useEffect(() => {
    if (id) rememberShownPercent(id, shown);
  }, [id, shown]);
  return shown;
}

/**
 * `GET /api/me`'s progress of generation `id` when it is the caller's running one (server state), else undefined.
 * Read from the cache the screen's own `useMe` fills, without fetching: an observer that fetched would refetch the
 * balance whenever a screen invalidates it.
 */
function useActiveProgress(id: string | null): number | undefined {
  const sub = useAuth().user?.sub ?? null;
  const active = useQuery<Me, ApiError>({
    queryKey: queryKeys.me.of(sub),
    queryFn: ({ signal }) => getMe(signal),
    enabled: false,
  }).data?.activeGeneration;
  return id !== null && active?.id === id ? active.progress : undefined;
}

/**
 * Polls the generation `id` ({@link useGeneration}: every 1.5 s until it ends) and says how far it is, never less
 * than before ({@link useSteadyPercent}; before the first poll, `GET /api/me`'s progress when it knows more than
 * `fallback`); the query itself comes along for the screen's other needs (the headshots, the status, a 404).
 */
export function useGenerationProgress(
  id: string | null,
  fallback: ProgressFallback,
): GenerationProgress & { query: UseQueryResult<Generation, ApiError> } {
  const query = useGeneration(id);
  const active = useActiveProgress(id);
  const progress = generationProgressOf(query.data, {
    ...fallback,
    progress: Math.max(fallback.progress, active ?? 0),
  });
  return { ...progress, percent: useSteadyPercent(id, progress.percent), query };
}

/**
 * The percent of generation `id` read from the cache without polling (the wizard's header, beside step 4 which
 * polls), on the same terms as {@link useGenerationProgress}, so the two agree.
 */
export function useGenerationPercent(id: string | null): number {
  const generation = useGenerationSnapshot(id);
  const active = useActiveProgress(id);
  return useSteadyPercent(id, generationPercentOf(generation, Math.max(INITIAL_PROGRESS, active ?? 0)));
}
