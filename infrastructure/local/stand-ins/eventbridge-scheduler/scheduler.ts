import type { LambdaRuntime, LocalFunction } from '../lambda/runtime';
import type { LocalLog } from '../../support/log';

/*
 * The local stand-in for EventBridge Scheduler (docs/architecture.md §5): every catalogue function with a `schedule`
 * (`rate(N minutes|hours)`) is invoked on that rate with the empty JSON object, as a schedule with no input does,
 * through the same local Lambda runtime. It is not an application scheduler: the functions are the ones the cloud's
 * schedules invoke, and tests invoke them directly instead of waiting.
 */

/** The period of a rate expression in ms. @throws {Error} for anything but `rate(N minute[s]|hour[s])` */
export function ratePeriodMs(expression: string): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(expression);
  if (!match || Number(match[1]) < 1) throw new Error(`Unsupported schedule expression: ${expression}`);
  return Number(match[1]) * (match[2]!.startsWith('hour') ? 3_600_000 : 60_000);
}

/** A running local scheduler. */
export interface LocalScheduler {
  /** The scheduled function names and their periods (ms). */
  schedules: { name: string; periodMs: number }[];
  stop(): Promise<void>;
}

/**
 * Starts one timer per scheduled function. An invocation still running when the next is due is skipped (Scheduler
 * would invoke again; our handlers are idempotent either way, this only keeps a slow local machine calm).
 */
export function startScheduler(options: {
  functions: readonly LocalFunction[];
  runtime: LambdaRuntime;
  log: LocalLog;
}): LocalScheduler {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  const schedules = options.functions
    .filter((fn): fn is LocalFunction & { schedule: string } => fn.schedule !== undefined)
    .map((fn) => ({ name: fn.name, periodMs: ratePeriodMs(fn.schedule) }));
  for (const { name, periodMs } of schedules) {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const run = options.runtime
        .invoke(name, {})
        .catch((error: unknown) => options.log.error(`scheduled ${name} failed: ${String(error)}`))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    }, periodMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    schedules,
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
