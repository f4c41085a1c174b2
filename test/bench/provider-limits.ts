import { setTimeout as sleep } from 'node:timers/promises';
import { getGeneration } from '../../functions/adapters/generations';
import { withFakeProvider } from './fake-provider';
import { apiJson, signedUpUser, startGeneration, uploadFixtures, type BenchStack } from './http';
import { readState } from '../../functions/adapters/provider-queue/state';
import { queueUsage, resetQueueUsage } from '../../functions/adapters/provider-queue/usage';
import { averageCallMs } from '../../functions/domain/provider-queue';
import { callTimeline, stackCpu, stackCpuMs, type CallTimeline, type StackCpu } from './load-timeline';

/** "Generation under provider limits": N generations of 6 started together against the rate-limited stand-in. */
export interface ProviderLimitFigures {
  generations: number;
  /** Photos each customer uploads (and has checked first, as the wizard does, when {@link checked}). */
  photos: number;
  /** Whether each customer's photos went through `POST /api/photo-checks` before the generation started. */
  checked: boolean;
  /** The stand-in's limit and PROVIDER_IMAGES_PER_MINUTE (C). */
  imagesPerMinute: number;
  /** PROVIDER_MAX_CONCURRENCY. */
  maxConcurrency: number;
  /** The stand-in's latency per image, ms. */
  latencyMs: number;
  delivered: number;
  total: number;
  /** Credits refunded over all generations. */
  refunds: number;
  /** 429 answers of the stand-in. */
  throttled: number;
  /** First POST → the last generation's completedAt, ms. */
  makespanMs: number;
  /** The first admission of any slot → the last completedAt, ms (photo preparation before the line excluded). */
  admittedMakespanMs: number;
  /** N·6/C minutes + latency, ms: every image sent the moment the limit allows it. */
  idealMs: number;
  /** Mean over the generations of first POST → its completedAt, ms (FCFS by generation: about half the makespan). */
  meanCompletionMs: number;
  /** The earliest and latest completion (first POST → completedAt), ms. */
  firstCompletionMs: number;
  lastCompletionMs: number;
  /**
   * CPU of this process (the local stack's handlers, Step Functions and gateway run in it) from the first POST to the
   * last completion, in % of one core: the mean, and the busiest 5 s window.
   */
  cpuMeanPercent: number;
  cpuPeakPercent: number;
  statuses: string[];
  /** The whole stack's CPU over the run (this process and its child processes) and the makespan floor it sets. */
  stackCpu: StackCpu;
  /** The calls the stand-in saw against its limit. */
  calls: CallTimeline;
  /** How long an admitted slot held its permit (lease granted → released), mean in ms (the gate's measured average). */
  meanHoldMs: number;
  /** The dispatcher over the run: invocations, their mean and longest duration (ms), lost races, wake-ups sent. */
  dispatcher: { invocations: number; meanMs: number; longestMs: number; lostRaces: number; wakeUps: number };
  /** The acceptance this run is held to (issue 25), when it has one. */
  goal?: LoadGoal;
}

/** What a load run must show: every image delivered with no refund, and these ratios at most. */
export interface LoadGoal {
  /** Makespan ÷ ideal. */
  makespanRatio: number;
  /** Mean completion ÷ makespan (first come, first served by generation). */
  meanCompletionRatio?: number;
}

/**
 * The load runs issue 25's acceptance names, with `npm start`'s stack and the rate-limited stand-in at 1 s per image:
 * 20 generations × 6 at 120 images/min (120/120, no refund, makespan ≤ 1.2× ideal) and 100 customers starting at
 * once with one photo each, checked first as the wizard does, at 300 images/min (600/600, makespan ≤ 1.3× ideal,
 * mean completion ≤ 0.6× makespan, the process not pegged). 25 in flight is the concurrency the measurement
 * allowed; 10 suffice for 120 images/min at 1 s.
 */
export const LOAD_RUNS = [
  { generations: 20, imagesPerMinute: 120, maxConcurrency: 10, goal: { makespanRatio: 1.2 } },
  {
    generations: 100,
    imagesPerMinute: 300,
    maxConcurrency: 25,
    photos: ['obama.jpg'],
    checkPhotos: true,
    goal: { makespanRatio: 1.3, meanCompletionRatio: 0.6 },
  },
] as const;

/** Samples this process's CPU every second; `stop` gives the mean and the busiest 5 s window, in % of one core. */
function sampleCpu(): { stop: () => { mean: number; peak: number } } {
  const start = { cpu: process.cpuUsage(), at: performance.now() };
  const samples: { cpuUs: number; at: number }[] = [];
  const tick = () => {
    const used = process.cpuUsage(start.cpu);
    samples.push({ cpuUs: used.user + used.system, at: performance.now() });
  };
  const timer = setInterval(tick, 1_000);
  return {
    stop() {
      clearInterval(timer);
      tick();
      const last = samples.at(-1)!;
      const mean = (last.cpuUs / 1000 / Math.max(1, last.at - start.at)) * 100;
      let peak = 0;
      for (let i = 0; i < samples.length; i++) {
        const j = samples.findIndex((s) => s.at >= samples[i]!.at + 5_000);
        if (j < 0) break;
        const window = (samples[j]!.cpuUs - samples[i]!.cpuUs) / 1000 / (samples[j]!.at - samples[i]!.at);
        peak = Math.max(peak, window * 100);
      }
      return { mean, peak: Math.max(peak, mean) };
    },
  };
}

interface View {
  status: string;
  queue: { position: number } | null;
  completedAt: string | null;
  headshots: unknown[];
  creditsRefunded: number;
}

/**
 * Retries a request that failed at the socket (ECONNRESET): ten generations' handlers share this process with the
 * gateway, and a busy event loop can let a keep-alive connection expire under a request.
 */
async function retrying<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 5 || !(error instanceof TypeError)) throw error;
      await sleep(500 * attempt);
    }
  }
}

/**
 * Starts `generations` generations at once through the local stack with the `openai` provider pointed at the
 * stand-in, which allows `imagesPerMinute` (quantized per second, as OpenAI documents) and answers each image after
 * `latencyMs`; the admission point gets the same limit. Reads the outcome from the API and the stand-in's counters.
 * The handlers' provider settings are restored afterwards.
 */
export async function benchProviderLimits(
  stack: BenchStack,
  options: {
    generations: number;
    imagesPerMinute: number;
    maxConcurrency: number;
    latencyMs: number;
    /** Fixture photos each customer uploads (default two). */
    photos?: readonly string[];
    /** Check the photos first (`POST /api/photo-checks`), as the wizard does before step 3 (default false). */
    checkPhotos?: boolean;
    goal?: LoadGoal;
  },
): Promise<ProviderLimitFigures> {
  const photos = options.photos ?? ['obama.jpg', 'obama-720p.jpg'];
  return withFakeProvider(options, async (fake) => {
    // Customers are set up one after the other (sign-up and presigned uploads are not what this row measures).
    const customers: { user: Awaited<ReturnType<typeof signedUpUser>>; keys: string[] }[] = [];
    for (let i = 0; i < options.generations; i++) {
      const user = await retrying(() => signedUpUser(stack));
      const keys = await retrying(() => uploadFixtures(stack, user.idToken, photos));
      if (options.checkPhotos) {
        await retrying(() => apiJson(stack, user.idToken, 'POST', '/api/photo-checks', { keys }));
      }
      customers.push({ user, keys });
    }
    resetQueueUsage();
    const cpuBefore = stackCpuMs();
    const cpu = sampleCpu();
    const started = Date.now();
    const ids = await Promise.all(
      customers.map(({ user, keys }) => startGeneration(stack, user.idToken, keys)),
    );
    const views = await Promise.all(
      customers.map(async ({ user }, i) => {
        const deadline = Date.now() + 15 * 60_000;
        let queuedSince: number | null = null;
        for (;;) {
          const view = await retrying(() =>
            apiJson<View>(stack, user.idToken, 'GET', `/api/generations/${ids[i]}`),
          );
          if (['succeeded', 'partial', 'failed'].includes(view.status)) return view;
          if (Date.now() > deadline)
            throw new Error(`generation ${ids[i]} still ${view.status} after 15 min`);
          // The wizard's schedule (frontend/src/hooks/use-generation.ts pollIntervalMs): 1.5 s, backing off to 10 s
          // while the generation waits in line. Completion times come from completedAt, not from the polls.
          queuedSince = view.queue && view.queue.position > 0 ? (queuedSince ?? Date.now()) : null;
          await sleep(Math.min(10_000, 1_500 + (queuedSince === null ? 0 : (Date.now() - queuedSince) / 4)));
        }
      }),
    );
    const usage = cpu.stop();
    const cpuAfter = stackCpuMs();
    const queue = queueUsage();
    const gate = await readState(true);
    const completions = views.map((v) => Date.parse(v.completedAt ?? new Date().toISOString()) - started);
    const ended = started + Math.max(...completions);
    const admitted = await Promise.all(customers.map(({ user }, i) => getGeneration(user.sub, ids[i]!)));
    const firstAdmitted = Math.min(
      ...admitted.map((g) => Date.parse(g?.admittedAt ?? new Date().toISOString())),
    );
    return {
      generations: options.generations,
      imagesPerMinute: options.imagesPerMinute,
      maxConcurrency: options.maxConcurrency,
      latencyMs: options.latencyMs,
      photos: photos.length,
      checked: options.checkPhotos ?? false,
      ...(options.goal ? { goal: options.goal } : {}),
      meanCompletionMs: completions.reduce((a, b) => a + b, 0) / completions.length,
      firstCompletionMs: Math.min(...completions),
      lastCompletionMs: Math.max(...completions),
      cpuMeanPercent: usage.mean,
      cpuPeakPercent: usage.peak,
      delivered: views.reduce((n, v) => n + v.headshots.length, 0),
      total: options.generations * 6,
      refunds: views.reduce((n, v) => n + v.creditsRefunded, 0),
      throttled: fake.stats.throttled,
      makespanMs: ended - started,
      admittedMakespanMs: ended - firstAdmitted,
      idealMs: ((options.generations * 6) / options.imagesPerMinute) * 60_000 + options.latencyMs,
      statuses: views.map((v) => v.status),
      stackCpu: stackCpu(
        cpuBefore,
        cpuAfter,
        views.reduce((n, v) => n + v.headshots.length, 0),
      ),
      calls: callTimeline(fake.arrivals),
      meanHoldMs: averageCallMs(gate),
      dispatcher: {
        invocations: queue.dispatches,
        meanMs: queue.dispatchMs / Math.max(1, queue.dispatches),
        longestMs: queue.longestDispatchMs,
        lostRaces: queue.lostRaces,
        wakeUps: queue.wakeUps,
      },
    };
  });
}
