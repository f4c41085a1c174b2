import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import { signUpNewUser } from '../e2e/helpers';
import { FIXTURE_PHOTOS_DIR } from './http';

/** Upload bandwidth the browser is held to (CDP network emulation), bits per second. */
export const UPLOAD_BITS_PER_SECOND = 10_000_000;

/** One photo as the real wizard sent it. */
export interface SentPhoto {
  /** The file the user picked. */
  file: string;
  originalBytes: number;
  /** Bytes of the prepared file the wizard posted for it (the multipart body's file part). */
  sentBytes: number;
}

/** Ten photos uploaded through the real wizard in Chromium at {@link UPLOAD_BITS_PER_SECOND}. */
export interface BrowserUploadFigures {
  photos: SentPhoto[];
  /** Files picked → the last presigned POST answered, ms. */
  allUploadedMs: number;
  /** Most presigned POSTs in flight at once. */
  maxParallel: number;
  /** Bytes of all ten POSTs (their Content-Length: fields and files). */
  totalSentBytes: number;
}

/** The ten photos: the 12-megapixel JPEG three times (as three files), the HEIC, and every other fixture. */
const PICKED = [
  ['obama-12mp.jpg', 'phone-1.jpg'],
  ['obama-12mp.jpg', 'phone-2.jpg'],
  ['obama-12mp.jpg', 'phone-3.jpg'],
  ['obama2.heic', 'iphone.heic'],
  ['obama.jpg', 'obama.jpg'],
  ['obama2.jpg', 'obama2.jpg'],
  ['obama3.jpg', 'obama3.jpg'],
  ['obama-720p.jpg', 'obama-720p.jpg'],
  ['obama-rotated.jpg', 'obama-rotated.jpg'],
  ['biden.jpg', 'biden.jpg'],
] as const;

/**
 * Signs a new user up on the production build (`siteUrl`, served with its API), opens the generator, holds the page
 * to 10 Mbit/s up (CDP `Network.emulateNetworkConditions`, 40 ms latency) and picks ten photos in step 1: the wizard
 * converts the HEIC, downscales to ≤ 2048 px and uploads in parallel through presigned POSTs. Each POST's body is
 * matched to its file by the multipart file name.
 */
export async function benchBrowserUploads(siteUrl: string): Promise<BrowserUploadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'headshot-bench-photos-'));
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const files = PICKED.map(([source, name]) => {
      copyFileSync(`${FIXTURE_PHOTOS_DIR}${source}`, join(dir, name));
      return { name, path: join(dir, name), bytes: statSync(join(dir, name)).size };
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signUpNewUser(page, siteUrl);
    await page.goto(new URL('/generator', siteUrl).href);
    await page.locator('input[type="file"]').waitFor({ state: 'attached' });

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: 50_000_000 / 8,
      uploadThroughput: UPLOAD_BITS_PER_SECOND / 8,
    });

    // CDP does not hand over multipart bodies built from Blobs, so each POST's size is its Content-Length, and the
    // file each one carried is recorded in the page, where the wizard appends it to the FormData.
    await page.evaluate(() => {
      const files: [string, number][] = [];
      (window as unknown as { __benchFiles: [string, number][] }).__benchFiles = files;
      const append = FormData.prototype.append;
      FormData.prototype.append = function (this: FormData, ...args: unknown[]) {
        const [name, value, fileName] = args;
        if (name === 'file' && value instanceof Blob) files.push([String(fileName ?? ''), value.size]);
        Reflect.apply(append, this, args);
      };
    });
    const postBytes: number[] = [];
    let inFlight = 0;
    let maxParallel = 0;
    let lastDone = 0;
    const isUpload = (method: string, url: string) =>
      method === 'POST' && !new URL(url).pathname.startsWith('/api');
    page.on('request', (request) => {
      if (!isUpload(request.method(), request.url())) return;
      inFlight++;
      maxParallel = Math.max(maxParallel, inFlight);
      void request
        .allHeaders()
        .then((headers) => postBytes.push(Number(headers['content-length'] ?? Number.NaN)));
    });
    const finished = (request: { method(): string; url(): string }) => {
      if (!isUpload(request.method(), request.url())) return;
      inFlight--;
      lastDone = performance.now();
    };
    page.on('requestfinished', finished);
    page.on('requestfailed', finished);

    const started = performance.now();
    await page.locator('input[type="file"]').setInputFiles(files.map((f) => f.path));
    await page
      .locator('[data-testid="photo-thumbnail"][data-status="uploaded"]')
      .nth(files.length - 1)
      .waitFor({ timeout: 300_000 });
    const allUploadedMs = lastDone - started;

    // The prepared file keeps the picked name, with .jpg for a converted HEIC.
    const sent = new Map(
      await page.evaluate(() => (window as unknown as { __benchFiles: [string, number][] }).__benchFiles),
    );
    const sentFor = (name: string) =>
      sent.get(name) ?? sent.get(name.replace(/\.hei[cf]$/i, '.jpg')) ?? Number.NaN;
    const photos = files.map((f) => ({ file: f.name, originalBytes: f.bytes, sentBytes: sentFor(f.name) }));
    return {
      photos,
      allUploadedMs,
      maxParallel,
      totalSentBytes: postBytes.reduce((a, b) => a + b, 0),
    };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
