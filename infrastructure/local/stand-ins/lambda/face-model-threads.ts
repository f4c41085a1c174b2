import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type {
  FaceModelRunner,
  ModelFace,
} from '../../../../functions/adapters/support/vision-models/model-runner';
import type { RgbImage } from '../../../../functions/adapters/support/pixels';

/**
 * The face models of the local stack on threads of their own (functions/adapters/vision/model-runner.ts). In the
 * cloud every concurrent invocation has an execution environment with its own CPU, so the six likeness checks of a
 * generation never hold up one another's S3 and DynamoDB calls; here every function shares one Node thread, and a
 * 120 ms model run in it stalls every other handler's I/O for as long. The threads give the model runs back their
 * own CPU: each keeps its own Human instance (loaded on its first image, as an environment's cold start) and takes
 * the next image when it is free; the handlers' thread only waits for the answer.
 */

interface Pending {
  resolve: (faces: ModelFace[]) => void;
  reject: (error: Error) => void;
}

interface ModelThread {
  worker: Worker;
  /** Jobs sent and not answered yet. */
  pending: Map<number, Pending>;
}

/** A pool of face-model threads and the runner that uses it. */
export interface FaceModelThreads {
  runner: FaceModelRunner;
  /** Ends every thread; jobs still running are rejected. */
  stop(): Promise<void>;
}

/**
 * Threads of the local stack's pool: one per core, at most 6 (a generation's six slots). The handlers' thread is
 * mostly waiting on I/O (a CPU profile of a generation: idle three quarters of the time), so it needs no core of its
 * own. Measured on a 2-core machine with `npm run bench` (fixed-latency provider, medians of 5 generations, runs
 * interleaved): all six headshots L + 1,116-1,239 ms with 2 threads against L + 1,535-1,687 ms with 1, the first
 * L + 654-712 ms against L + 677-976 ms.
 */
export const FACE_MODEL_THREADS = Math.max(1, Math.min(6, availableParallelism()));

const THREAD_MODULE = new URL('./face-model-thread.ts', import.meta.url);

/**
 * Starts a pool of `count` face-model threads (each created on first need). Each job goes to the thread with the
 * fewest jobs in hand. A thread that dies fails its jobs and is replaced on the next one.
 *
 * @param count threads, at least 1
 */
export function startFaceModelThreads(count: number): FaceModelThreads {
  const threads: (ModelThread | undefined)[] = Array.from({ length: Math.max(1, count) }, () => undefined);
  let nextId = 0;

  const spawn = (index: number): ModelThread => {
    // The thread loads TypeScript sources like this process does (tsx), whatever started it (npm start, vitest, bench).
    const worker = new Worker(THREAD_MODULE, { execArgv: ['--import', 'tsx'] });
    worker.unref();
    const thread: ModelThread = { worker, pending: new Map() };
    const fail = (error: Error) => {
      if (threads[index] === thread) threads[index] = undefined;
      for (const job of thread.pending.values()) job.reject(error);
      thread.pending.clear();
    };
    worker.on('message', (message: { id: number; faces?: ModelFace[]; error?: string }) => {
      const job = thread.pending.get(message.id);
      if (!job) return;
      thread.pending.delete(message.id);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.faces ?? []);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The face-model thread exited (code ${code})`)));
    threads[index] = thread;
    return thread;
  };

  const pick = (): ModelThread => {
    let best = 0;
    for (let i = 1; i < threads.length; i++) {
      const load = (t: ModelThread | undefined) => t?.pending.size ?? 0;
      if (load(threads[i]) < load(threads[best])) best = i;
    }
    return threads[best] ?? spawn(best);
  };

  const runner: FaceModelRunner = (image: RgbImage) => {
    const thread = pick();
    const id = nextId++;
    return new Promise<ModelFace[]>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({
        id,
        image: { data: image.data, width: image.width, height: image.height },
      });
    });
  };

  return {
    runner,
    async stop() {
      await Promise.all(threads.map((thread) => thread?.worker.terminate()));
      threads.fill(undefined);
    },
  };
}
