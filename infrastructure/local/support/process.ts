import type { ChildProcess } from 'node:child_process';

/**
 * Stops a child process: SIGTERM, then SIGKILL after `graceMs` (ms) if it is still alive. Resolves when it exited.
 */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
