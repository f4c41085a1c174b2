import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';

const FILE = 'children.json';

/**
 * Records the pids of the stack's child processes (Java, cognito-local) in the data directory. Ctrl-C and SIGTERM
 * stop them; this file exists for the one case nothing can catch (the parent killed with SIGKILL), so the next
 * start can end what was left behind.
 */
export function rememberChildren(dataDir: string, children: ChildProcess[]): void {
  const pids = children.map((c) => c.pid).filter((p): p is number => typeof p === 'number');
  writeFileSync(join(dataDir, FILE), JSON.stringify(pids));
}

/** Removes the record after a clean stop. */
export function forgetChildren(dataDir: string): void {
  rmSync(join(dataDir, FILE), { force: true });
}

/**
 * Kills children a previous run left behind, if they are still ours (their command line names DynamoDB Local or
 * cognito-local). Returns how many were ended.
 */
export function killLeftoverChildren(dataDir: string): number {
  const file = join(dataDir, FILE);
  if (!existsSync(file)) return 0;
  let killed = 0;
  try {
    const pids = JSON.parse(readFileSync(file, 'utf8')) as number[];
    for (const pid of pids) {
      const cmdline = `/proc/${pid}/cmdline`;
      const ours = existsSync(cmdline) && /DynamoDBLocal|cognito-local/.test(readFileSync(cmdline, 'utf8'));
      if (ours) {
        process.kill(pid, 'SIGKILL');
        killed++;
      }
    }
  } catch {
    // A stale or unreadable record is not worth failing the start for.
  }
  rmSync(file, { force: true });
  return killed;
}
