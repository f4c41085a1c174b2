import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh directory under the OS temp dir for the running test, removed with everything in it when that test
 * finishes (pass or fail), so repeated runs on one machine leave nothing behind. Call it inside a test.
 *
 * @param prefix the directory name's start, e.g. `'asl-'`
 */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
