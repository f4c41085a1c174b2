import { HEADSHOTS_PER_GENERATION } from './slots';

/**
 * The states a generation goes through and how far along each one is (docs/product-spec.md §4 Generation progress;
 * docs/architecture.md §4). Pure: the handlers, the workflow tasks and the wizard's polling share one definition.
 */

/**
 * Where a generation is, for programs:
 * - `queued`: credits reserved, the workflow not yet running;
 * - `running`: the workflow is preparing photos or generating headshots;
 * - `succeeded`: all 6 headshots saved;
 * - `partial`: some headshots saved, one credit refunded per missing headshot;
 * - `failed`: nothing delivered, every credit refunded, `error` says why.
 */
export type GenerationStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';

/** Statuses a generation never leaves: the wizard stops polling on these. */
export const TERMINAL_STATUSES: readonly GenerationStatus[] = ['succeeded', 'partial', 'failed'];

/** True for `succeeded`, `partial` and `failed`. */
export function isTerminal(status: GenerationStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * What the workflow is doing: `queued` → `preparing` (checking and normalizing photos) → `generating` (the image
 * provider at work, headshots saved one by one) → `done`, or `failed` from any stage.
 */
export type GenerationStage = 'queued' | 'preparing' | 'generating' | 'done' | 'failed';

/**
 * Progress points, in percent, written to the generation item as the workflow moves (docs/product-spec.md §4 "Generation
 * progress", without its artificial pauses). The wizard words them: under 30 'Analyzing your photos...', 30 to
 * under 90 'Creating professional headshots...', 90 and above 'Almost done...'.
 */
export const PROGRESS = {
  /** Credits reserved, generation created (spec: "credits are deducted first (progress 5)"). */
  queued: 5,
  /** PrepareReferences started. */
  preparing: 10,
  /** Photos checked and normalized. */
  prepared: 30,
  /** Prompt built; the provider calls start. */
  generating: 45,
  /** Added per headshot saved: 45 + 6 × 8 = 93, so the last one saved reads 'Almost done...'. */
  perHeadshot: 8,
  /** Finished (succeeded or partial). */
  done: 100,
} as const;

/**
 * The status a generation ends with once its images are in: `succeeded` with every headshot, `partial` with
 * some, `failed` with none.
 */
export function finalStatus(
  savedCount: number,
  { expected = HEADSHOTS_PER_GENERATION }: { expected?: number } = {},
): 'succeeded' | 'partial' | 'failed' {
  if (savedCount >= expected) return 'succeeded';
  return savedCount > 0 ? 'partial' : 'failed';
}
