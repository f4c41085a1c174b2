/**
 * `npm test`: every suite — unit, integration (real emulators), infrastructure (CDK synth + cdk-nag), e2e (headless
 * Chromium). Extra arguments go to vitest (e.g. `npm test -- test/unit`).
 *
 * Without a Chromium, e2e is skipped with one clear line; under CI (`CI=true`) that is a failure instead, because a
 * green CI must have run the browser tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './e2e/chromium';

const projects = ['unit', 'integration', 'infrastructure'];
const browser = chromiumPath();
if (browser) {
  projects.push('e2e');
} else if (process.env.CI === 'true') {
  console.error(
    'e2e: FAILED — no Chromium found (looked at $CHROMIUM_PATH, /usr/bin/chromium). CI must run the browser tests: `apt-get install -y chromium`.',
  );
  process.exit(1);
} else {
  console.log(
    'e2e: SKIPPED — no Chromium found. Install it (`sudo apt-get install -y chromium`) or set CHROMIUM_PATH.',
  );
}

const args = [
  'vitest',
  'run',
  '--config',
  'test/vitest.config.ts',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=./test/summary-reporter.ts',
  ...process.argv.slice(2),
];
const npx = existsSync('node_modules/.bin/vitest') ? 'node_modules/.bin/vitest' : 'npx';
const result = spawnSync(npx, npx === 'npx' ? args : args.slice(1), {
  stdio: 'inherit',
  env: {
    ...process.env,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    // Lambda runs Node 22; the SDK's notice about local Node 20 would only add noise to every test log.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...(browser ? { CHROMIUM_PATH: browser } : {}),
  },
});
process.exit(result.status ?? 1);
