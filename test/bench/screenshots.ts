/**
 * `node --import tsx test/bench/screenshots.ts [outDir]`: full-page screenshots of `/` and `/pricing` of the
 * production build (served with its API, as the bench serves it) at 1280 and 390 px, to compare the landing before
 * and after a change by eye. Writes `<page>-<width>.png` to `outDir` (default `test-results/screenshots/site`).
 */
import './env';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { findFreePort } from '../../infrastructure/local/support/ports';
import { REPO_ROOT, startLocalStack } from '../../infrastructure/local/stack';
import { CHROMIUM_ARGS, chromiumPath, loadAllImages, RENDER_ALL_SECTIONS } from '../e2e/chromium';
import { benchStackPorts, buildSite, startPreviewSite } from './site';

const outDir = process.argv[2] ?? join(REPO_ROOT, 'test-results/screenshots/site');
mkdirSync(outDir, { recursive: true });
const siteDir = mkdtempSync(join(tmpdir(), 'headshot-shots-site-'));
const sitePort = await findFreePort();
const stack = await startLocalStack({
  ports: benchStackPorts(sitePort),
  withSite: false,
  quiet: true,
});
try {
  await buildSite(siteDir);
  const site = await startPreviewSite({
    outDir: siteDir,
    port: sitePort,
    gatewayUrl: stack.gatewayUrl,
    runtimeConfig: stack.runtimeConfig,
  });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    for (const width of [1280, 390]) {
      for (const [name, path] of [
        ['landing', '/'],
        ['pricing', '/pricing'],
      ] as const) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.goto(`${site.url}${path}`, { waitUntil: 'networkidle' });
        await page.getByRole('button', { name: 'Get 60 Credits' }).first().waitFor();
        const broken = await loadAllImages(page);
        if (broken.length > 0)
          process.stderr.write(`${name} at ${width} px: images failed: ${broken.join(' ')}\n`);
        await page.waitForTimeout(300);
        await page.screenshot({
          path: join(outDir, `${name}-${width}.png`),
          fullPage: true,
          style: RENDER_ALL_SECTIONS,
        });
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await site.stop();
  }
} finally {
  await stack.stop();
  rmSync(siteDir, { recursive: true, force: true });
}
process.stdout.write(`screenshots in ${outDir}\n`);
