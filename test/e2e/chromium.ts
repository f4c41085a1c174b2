import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * Where Debian puts the browser, first choice first; `CHROMIUM_PATH` overrides it. Debian's `chromium-headless-shell`
 * (the same Chromium build as its `chromium` package, without the browser's UI: the shell Playwright itself runs for
 * headless tests) spent 22 s of CPU where the full browser spent 41 s on the same two e2e files (decision 014, sixth
 * round); the full `chromium` is the fallback.
 */
const CANDIDATES = [
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The Chromium executable the e2e tests drive, or `undefined` when none is installed. */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

/** Launch flags for headless Chromium on these machines (no sandbox as root, no background network calls). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Scrolls every lazy image into view and waits until each has loaded, so a full-page screenshot shows them all;
 * returns the `src` of every image that failed to load (none on a healthy page).
 */
export async function loadAllImages(page: Page): Promise<string[]> {
  await page.evaluate(async () => {
    for (const img of Array.from(document.images)) {
      img.scrollIntoView({ block: 'center', behavior: 'instant' });
      if (!img.complete)
        await new Promise((resolve) => img.addEventListener('load', resolve, { once: true }));
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
  });
  return page.evaluate(() =>
    Array.from(document.images)
      .filter((img) => img.naturalWidth === 0)
      .map((img) => img.src),
  );
}

/**
 * CSS that lays out the sections a page leaves to the browser until they near the viewport (`render-when-near`,
 * frontend/src/index.css): a full-page screenshot or an axe audit must see them, and they are blank there otherwise.
 */
export const RENDER_ALL_SECTIONS = '.render-when-near { content-visibility: visible !important; }';
