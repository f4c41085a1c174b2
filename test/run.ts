/**
 * `npm test`: every suite — unit, integration (real emulators), infrastructure (CDK synth + cdk-nag), e2e (headless
 * Chromium). Extra arguments go to vitest (e.g. `npm test -- -t ledger`). Options of its own, before any vitest
 * argument:
 *
 * - `--fast` (`npm run test:fast`): unit, frontend and infrastructure only: no emulator, no browser.
 * - `--times` (`npm run test:times`): after the run, every test file's duration, slowest first, and each project's
 *   total (also written to `test-results/times.json`); a whole run (no other argument) also rewrites
 *   `test/file-durations.json`, the order later runs start their files in (test/sequencer.ts).
 *
 * e2e runs in a vitest process of its own, beside the others: its setup starts a second local stack with the site, and
 * handlers run in-process, so two stacks in one process would share handler modules and SDK clients. Its report is
 * printed when it ends.
 *
 * Without a Chromium, e2e is skipped with one clear line; under CI (`CI=true`) that is a failure instead, because a
 * green CI must have run the browser tests. The last line is the count of tests and the elapsed time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from './e2e/chromium';
import type { SummaryLine } from './summary-reporter';
import { formatTimes } from './times';

const started = Date.now();
const own = new Set(['--fast', '--times']);
const fast = process.argv.includes('--fast');
const times = process.argv.includes('--times');
const vitestArgs = process.argv.slice(2).filter((arg) => !own.has(arg));

const browser = fast ? undefined : chromiumPath();
let e2eSkipped = fast;
if (!fast && !browser) {
  if (process.env.CI === 'true') {
    console.error(
      'e2e: FAILED — no Chromium found (looked at $CHROMIUM_PATH, /usr/bin/chromium-headless-shell, /usr/bin/chromium). CI must run the browser tests: `apt-get install -y chromium-headless-shell`.',
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

/**
 * One vitest process for `projects` with `workers` test files at a time (unless TEST_WORKERS says). With `logFile`, its output goes there (printed by the caller once the process
 * ends, so two processes running side by side do not interleave their reports).
 */
function vitest(projects: string[], workers: number, logFile?: string): Promise<number> {
  const args = [
    'run',
    '--config',
    'test/vitest.config.ts',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=./test/summary-reporter.ts',
    ...vitestArgs,
  ];
  const out = logFile ? openSync(logFile, 'w') : 'inherit';
  const child = spawn('node_modules/.bin/vitest', args, {
    stdio: ['ignore', out, out],
    env: { TEST_WORKERS: String(workers), ...env },
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

// e2e starts at once beside the other projects, in its own process (its own stack, see above): most of its time is
// spent waiting on the browser and the workflow, which the other process's work fills.
const e2eLog = join(summaryDir, 'e2e.log');
// Three files at a time in the whole run: several integration files mostly wait (a rate-limited provider, the
// workflow), and a third slot fills that wait on two cores (decision 014, fifth round). The fast tier has no such
// files: two, one per core.
const runs = [
  vitest(
    fast ? ['unit', 'frontend', 'infrastructure'] : ['unit', 'frontend', 'integration', 'infrastructure'],
    fast ? 2 : 3,
  ),
  ...(e2eSkipped ? [] : [vitest(['e2e'], 1, e2eLog)]),
];
const statuses = await Promise.all(runs);
if (!e2eSkipped) {
  console.log('\n── e2e ──');
  process.stdout.write(readFileSync(e2eLog, 'utf8'));
}

let lines: SummaryLine[] = [];
try {
  lines = readFileSync(summaryFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SummaryLine);
} catch {
  // No summary: a vitest run died before reporting; its exit status below says so.
}
rmSync(summaryDir, { recursive: true, force: true });
let passed = 0;
let failed = 0;
let skipped = 0;
for (const line of lines) {
  if (line.kind !== 'counts') continue;
  passed += line.passed;
  failed += line.failed;
  skipped += line.skipped;
}
const files = lines.filter((line) => line.kind === 'file');
if (times) {
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/times.json', `${JSON.stringify(files, null, 2)}\n`);
  // A whole run also records the order the next runs start their files in (test/sequencer.ts): commit it.
  if (!fast && vitestArgs.length === 0) {
    const durations = Object.fromEntries(
      [...files]
        .sort((a, b) => b.durationMs - a.durationMs || a.file.localeCompare(b.file))
        .map((f) => [f.file, Math.round(f.durationMs / 100) / 10]),
    );
    writeFileSync('test/file-durations.json', `${JSON.stringify(durations, null, 2)}\n`);
  }
  console.log(`\n${formatTimes(files)}`);
}
// The failures again at the very end, so the tail of a long CI log says what failed.
const failures = lines.filter((line) => line.kind === 'failure');
if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ${f.project} ${f.file} > ${f.test}\n    ${f.error}`);
}
const ok = statuses.every((s) => s === 0);
if (!ok && failed === 0) failed = 1;
const elapsed = Math.round((Date.now() - started) / 1000);
console.log(
  `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} in ${files.length} files; ${Math.floor(elapsed / 60)} min ${elapsed % 60} s`,
);
process.exit(ok ? 0 : 1);
