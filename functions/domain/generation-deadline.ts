import { providerTimeoutsOf } from './provider-timeouts';

/**
 * How long a generation may run — the ONE source (docs/architecture.md §2, §4). Everything follows from two
 * configured numbers: the generation deadline (`GENERATION_DEADLINE_MINUTES`, counted from the execution's start; no
 * provider call is admitted after it) and the slot's worst case (the CallProvider Task's `TimeoutSeconds`, which
 * follows the configured model and quality, plus FinishHeadshot's: provider-timeouts.ts `slotSeconds`). A call admitted just before the deadline may run
 * its whole slot timeout, and the generation then still finishes (release, Finalize or the compensation, the
 * e-mail), so:
 *
 * - the state machine's `TimeoutSeconds` = deadline + slot worst case + {@link FINISHING_SECONDS};
 * - a generation may still have a running execution until `createdAt` + {@link START_ALLOWANCE_SECONDS} + that
 *   timeout ({@link mayStillRun}: "delete my data" and "delete my account" are refused until then);
 * - the sweeper compensates a generation still open {@link SWEEP_MARGIN_SECONDS} after that, never earlier (an
 *   earlier sweep would refund and delete headshots that are still being paid for and delivered).
 *
 * Pure: every time is an argument (epoch ms or ISO 8601), so the CDK stack, the local stack, the handlers and the
 * tests share one definition.
 */

/** GENERATION_DEADLINE_MINUTES when unset: how long a generation may wait in line in total, in minutes. */
export const DEFAULT_DEADLINE_MINUTES = 30;

/**
 * Time the execution allows around the last admitted provider call, in seconds: the admitting EnterLine
 * resumption (30 s allowed), ReleaseProviderSlot (30 s), Finalize (60 s) and the longer of NotifyReady (30 s) and
 * the compensation RefundCredits + MarkFailed + NotifyFailed (60 + 30 + 30 s) — 240 s of Task timeouts in
 * statemachines/generation.asl.json (checked by test/unit/generation-deadline.test.ts) — plus 60 s for their
 * retries' backoff.
 */
export const FINISHING_SECONDS = 300;

/**
 * Time from a generation's creation (`createdAt`, the spend transaction) to its execution's start, at most, in
 * seconds: the same request calls StartExecution right after the spend, and that function times out after 29 s
 * (functions/catalogue.ts, kind `http`); the rest is clock skew between the API function and Step Functions.
 */
export const START_ALLOWANCE_SECONDS = 60;

/**
 * Time the sweeper waits beyond the last moment an execution can run, in seconds: an execution that timed out is
 * compensated by the execution-ended function within seconds; the sweeper is the backstop for what that missed.
 */
export const SWEEP_MARGIN_SECONDS = 60;

/** Everything a generation's time limits follow from, and what they come to. Durations in s or ms as named. */
export interface GenerationTimeBudget {
  /** The configured deadline, in minutes (may be fractional in tests). */
  deadlineMinutes: number;
  /**
   * The slot's worst case: the CallProvider Task's `TimeoutSeconds` plus FinishHeadshot's (provider-timeouts.ts
   * `slotSeconds`).
   */
  slotSeconds: number;
  /** The state machine's `TimeoutSeconds`: deadline + slot worst case + {@link FINISHING_SECONDS}. */
  executionTimeoutSeconds: number;
  /** From `createdAt`, in ms: after this no execution of the generation is running any more. */
  maxRuntimeMs: number;
  /** From `createdAt`, in ms: from this moment the sweeper compensates a generation that is still open. */
  sweepAfterMs: number;
  /** Past the admission deadline (the sweep marker's key), in ms: how long the sweeper leaves the generation alone. */
  sweepGraceMs: number;
}

/** A deadline or slot timeout that cannot be a time limit. */
export class DeadlineConfigError extends Error {
  override readonly name = 'DeadlineConfigError';
}

/**
 * The time budget of a generation for a configured deadline and slot worst case.
 *
 * @param deadlineMinutes GENERATION_DEADLINE_MINUTES: above 0 (fractional allowed)
 * @param slotSeconds the slot's two Tasks' `TimeoutSeconds` (provider-timeouts.ts `slotSeconds`), whole seconds
 *   above 0
 * @throws {DeadlineConfigError} when either is not a positive finite number (or the slot not whole seconds)
 */
export function generationTimeBudget(deadlineMinutes: number, slotSeconds: number): GenerationTimeBudget {
  if (!Number.isFinite(deadlineMinutes) || deadlineMinutes <= 0) {
    throw new DeadlineConfigError(`Generation deadline ${deadlineMinutes} min: a number of minutes above 0`);
  }
  if (!Number.isInteger(slotSeconds) || slotSeconds <= 0) {
    throw new DeadlineConfigError(`Slot timeout ${slotSeconds} s: a whole number of seconds above 0`);
  }
  const executionTimeoutSeconds = Math.ceil(deadlineMinutes * 60) + slotSeconds + FINISHING_SECONDS;
  const maxRuntimeMs = (START_ALLOWANCE_SECONDS + executionTimeoutSeconds) * 1000;
  const sweepAfterMs = maxRuntimeMs + SWEEP_MARGIN_SECONDS * 1000;
  return {
    deadlineMinutes,
    slotSeconds,
    executionTimeoutSeconds,
    maxRuntimeMs,
    sweepAfterMs,
    sweepGraceMs: sweepAfterMs - Math.round(deadlineMinutes * 60_000),
  };
}

/**
 * The time budget for a handlers' environment (GENERATION_DEADLINE_MINUTES, OPENAI_IMAGE_MODEL,
 * OPENAI_IMAGE_QUALITY, OPENAI_TIMEOUT_SECONDS; defaults when unset): the local Step Functions and the local stack
 * substitute the same `TimeoutSeconds` the CDK stack does.
 *
 * @throws {DeadlineConfigError | TimeoutConfigError} on a value that cannot be a time limit
 */
export function generationTimeBudgetOf(
  env: Readonly<Record<string, string | undefined>>,
): GenerationTimeBudget {
  const minutes = env.GENERATION_DEADLINE_MINUTES
    ? Number(env.GENERATION_DEADLINE_MINUTES)
    : DEFAULT_DEADLINE_MINUTES;
  return generationTimeBudget(minutes, providerTimeoutsOf(env).slotSeconds);
}

/**
 * The instant after which no provider call of the generation is admitted, in epoch ms: its execution's start plus
 * the deadline.
 *
 * @param startedAt the execution's start (ISO 8601 or epoch ms)
 */
export function deadlineOf(startedAt: string | number, deadlineMinutes: number): number {
  return new Date(startedAt).getTime() + deadlineMinutes * 60_000;
}

/** The state machine's `TimeoutSeconds`: the deadline, the slot's worst case and the finishing steps, in seconds. */
export function executionTimeoutSeconds(deadlineMinutes: number, slotSeconds: number): number {
  return generationTimeBudget(deadlineMinutes, slotSeconds).executionTimeoutSeconds;
}

/**
 * Whether a generation that has not reached a final status may still have a running execution, judged by its age
 * (so the user's data must not be deleted under it: the execution would go on storing headshots).
 *
 * @param createdAt the generation's `createdAt` (ISO 8601); unreadable counts as "may still run"
 * @param now epoch ms
 */
export function mayStillRun(createdAt: string, now: number, budget: GenerationTimeBudget): boolean {
  const created = Date.parse(createdAt);
  return Number.isNaN(created) || now - created < budget.maxRuntimeMs;
}

/**
 * The sweeper's cutoff at `now` (ISO 8601): a sweep marker whose admission deadline is before it belongs to a
 * generation no execution can still be working on, so an open one is compensated.
 *
 * @param now epoch ms
 */
export function sweepCutoff(now: number, budget: GenerationTimeBudget): string {
  return new Date(now - budget.sweepGraceMs).toISOString();
}
