import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalLog, PartLog } from '../support/log';
import { forgetChildren } from '../support/pids';

/**
 * What every part of the local stack shares while it starts and stops: the data directory, the list of stops, and
 * the loggers. The parts themselves are in this folder, one concern each; `stack.ts` starts them in order.
 */

/** Stops one running part; resolves when it has stopped. */
export type Stop = () => Promise<void>;

/** The logger of one part, by its name as the log prefix shows it (`dynamodb`, `api`, …). */
export type PartLogs = (part: string) => PartLog;

/** The stops of the parts started so far. */
export interface Teardown {
  /** Registers the stops of a part as soon as it runs, so a later part's failure, or the stack's stop, ends it. */
  add(...stops: Stop[]): void;
  /**
   * Runs every stop, the last registered first (a part stops before the parts it uses); a stop that fails is logged
   * and the others still run. Only the first call does anything: later calls resolve at once.
   */
  run(): Promise<void>;
}

/**
 * A new, empty {@link Teardown}.
 *
 * @param finish runs after the last stop (the data directory's clean-up)
 */
export function createTeardown(log: LocalLog, finish: () => void = () => undefined): Teardown {
  const stops: Stop[] = [];
  let ran = false;
  return {
    add: (...more) => void stops.push(...more),
    run: async () => {
      if (ran) return;
      ran = true;
      for (const stop of stops.reverse()) await stop().catch((e: unknown) => log.error(String(e)));
      finish();
    },
  };
}

/** Where a local stack keeps its data (tables, objects, accounts, mail of the Checkout provider, analytics). */
export interface DataDir {
  /** Absolute path; it exists once {@link openDataDir} returns. */
  path: string;
  /** Made for this run because none was given: DynamoDB Local keeps its tables in memory and {@link close} removes it. */
  temporary: boolean;
  /** After a clean stop: forgets the child-process record (support/pids.ts) and removes a temporary directory. */
  close(): void;
}

/**
 * The data directory of a run: `dataDir` (created when missing; `.local/` for `npm start`), or a new temporary
 * directory under the OS's temp dir when it is `undefined` (tests).
 */
export function openDataDir(dataDir: string | undefined): DataDir {
  const temporary = dataDir === undefined;
  const path = dataDir ?? mkdtempSync(join(tmpdir(), 'headshot-studio-'));
  mkdirSync(path, { recursive: true });
  return {
    path,
    temporary,
    close: () => {
      forgetChildren(path);
      if (temporary) rmSync(path, { recursive: true, force: true });
    },
  };
}
