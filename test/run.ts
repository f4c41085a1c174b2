/**
 * `npm test`: every suite — unit, integration (real emulators), infrastructure (CDK synth + cdk-nag), e2e (headless
 * Chromium). Extra arguments go to vitest (e.g. `npm test -- -t ledger`).
 *
 * e2e runs in its own vitest process after the others: its setup starts a second local stack, and handlers run
 * in-process, so two stacks in one process would share handler modules and SDK clients.
 *
 * Without a Chromium, e2e is skipped with one clear line; under CI (`CI=true`) that is a failure instead, because a
 * green CI must have run the browser tests.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from './e2e/chromium';

const browser = chromiumPath();
let e2eSkipped = false;
if (!browser) {
  if (process.env.CI === 'true') {
    console.error(
      'e2e: FAILED — no Chromium found (looked at $CHROMIUM_PATH, /usr/bin/chromium). CI must run the browser tests: `apt-get install -y chromium`.',
    );
    process.exit(1);
  }
  e2eSkipped = true;
  console.log(
    'e2e: SKIPPED — no Chromium found. Install it (`sudo apt-get install -y chromium`) or set CHROMIUM_PATH.',
  );
}

const summaryDir = mkdtempSync(join(tmpdir(), 'headshot-tests-'));
const summaryFile = join(summaryDir, 'summary.jsonl');
const env = {
  ...process.env,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  TEST_SUMMARY_FILE: summaryFile,
  ...(browser ? { CHROMIUM_PATH: browser } : {}),
};

function vitest(projects: string[]): number {
  const args = [
    'run',
    '--config',
    'test/vitest.config.ts',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=./test/summary-reporter.ts',
    ...process.argv.slice(2),
  ];
  const result = spawnSync('node_modules/.bin/vitest', args, { stdio: 'inherit', env });
  return result.status ?? 1;
}

const statuses = [vitest(['unit', 'integration', 'infrastructure'])];
if (!e2eSkipped) statuses.push(vitest(['e2e']));

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  for (const line of readFileSync(summaryFile, 'utf8').split('\n').filter(Boolean)) {
    const counts = JSON.parse(line) as { passed: number; failed: number; skipped: number };
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
} catch {
  // No summary: a vitest run died before reporting; its exit status below says so.
}
rmSync(summaryDir, { recursive: true, force: true });
const ok = statuses.every((s) => s === 0);
if (!ok && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
