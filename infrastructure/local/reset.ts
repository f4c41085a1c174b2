/**
 * `npm run reset`: wipes the local stack's data (`.local/`: the table, the buckets' objects, the user pool and its
 * accounts). Stop `npm start` first; the next start creates everything again.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { killLeftoverChildren } from './support/pids';
import { REPO_ROOT } from './stack';

const dataDir = join(REPO_ROOT, '.local');
if (existsSync(dataDir)) {
  killLeftoverChildren(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  console.log('Local data wiped (.local/). The next `npm start` starts from scratch.');
} else {
  console.log('Nothing to wipe: .local/ does not exist.');
}
