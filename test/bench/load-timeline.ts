import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/*
 * Where a load run's time goes (test/bench/provider-limits.ts): the calls the rate-limited stand-in saw against its
 * limit, and the CPU the whole local stack used — this process (handlers, Step Functions, gateway, the stand-in, the
 * face-model threads, sharp's threads) and its child processes (DynamoDB Local, s3rver, cognito-local) — so a
 * makespan over the goal can be told apart from a machine that has no CPU left for it.
 */

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's utime and stime. */
const CLOCK_TICKS = 100;

/** utime + stime of every descendant of `root` (children of children included), in CPU-ms; 0 off Linux. */
function descendantsCpuMs(root: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const pid of entries) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command (in parentheses, which may hold spaces): state ppid … utime(14) stime(15).
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended meanwhile.
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let ticks = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/** CPU-ms used so far by this process (all its threads) and by its descendants. */
export function stackCpuMs(): { own: number; children: number } {
  const own = process.cpuUsage();
  return { own: (own.user + own.system) / 1000, children: descendantsCpuMs(process.pid) };
}

/** The stack's CPU over a run, and what it means for the makespan on this machine. */
export interface StackCpu {
  /** CPU-ms of this process over the run (its threads included). */
  ownMs: number;
  /** CPU-ms of the stack's child processes (DynamoDB Local, s3rver, cognito-local) over the run. */
  childrenMs: number;
  /** (own + children) ÷ images delivered, in CPU-ms. */
  perImageMs: number;
  /** Cores of this machine. */
  cores: number;
  /**
   * The shortest makespan this machine's CPU allows for the run's work, in ms: (own + children) ÷ cores — every core
   * busy with nothing else. Over the goal's makespan, the goal is CPU-bound here, whatever the queue does.
   */
  floorMs: number;
}

/** The stack's CPU between two {@link stackCpuMs} readings, for `images` images. */
export function stackCpu(
  before: ReturnType<typeof stackCpuMs>,
  after: ReturnType<typeof stackCpuMs>,
  images: number,
): StackCpu {
  const ownMs = after.own - before.own;
  const childrenMs = Math.max(0, after.children - before.children);
  const cores = availableParallelism();
  return {
    ownMs,
    childrenMs,
    perImageMs: (ownMs + childrenMs) / Math.max(1, images),
    cores,
    floorMs: (ownMs + childrenMs) / cores,
  };
}

/** The calls the stand-in saw: how close they came to its limit. */
export interface CallTimeline {
  /** Calls it accepted, and refused with 429. */
  accepted: number;
  throttled: number;
  /** The first accepted call → the last, ms. */
  spanMs: number;
  /** Accepted calls per second over that span (the limit: imagesPerMinute ÷ 60). */
  perSecond: number;
  /** The longest time between two accepted calls, ms (the limit's spacing: 60,000 ÷ imagesPerMinute). */
  longestGapMs: number;
  /** Accepted calls per whole second from the first (the timeline, for the JSON). */
  perSecondSeries: number[];
}

/** Reads the stand-in's arrivals (server.ts `arrivals`). */
export function callTimeline(arrivals: readonly { at: number; throttled: boolean }[]): CallTimeline {
  const accepted = arrivals.filter((a) => !a.throttled).map((a) => a.at);
  const first = accepted[0] ?? 0;
  const last = accepted.at(-1) ?? 0;
  const series: number[] = [];
  for (const at of accepted) {
    const second = Math.floor((at - first) / 1000);
    while (series.length <= second) series.push(0);
    series[second]! += 1;
  }
  let longestGapMs = 0;
  for (let i = 1; i < accepted.length; i++)
    longestGapMs = Math.max(longestGapMs, accepted[i]! - accepted[i - 1]!);
  return {
    accepted: accepted.length,
    throttled: arrivals.length - accepted.length,
    spanMs: last - first,
    perSecond: accepted.length > 1 ? ((accepted.length - 1) * 1000) / Math.max(1, last - first) : 0,
    longestGapMs,
    perSecondSeries: series,
  };
}
