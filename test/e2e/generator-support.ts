import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectVisible } from './helpers';

/*
 * What the e2e files that upload photos and generate share (generator.test.ts on a desktop, generator-phone.test.ts
 * on a phone, and the offline-preview, photo-check, journey and queue files): the fixture photos, the upload step,
 * the screenshots' style and the checks on the results grid.
 */

export const PHOTOS = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));
export const FIVE_PHOTOS = ['obama.jpg', 'obama2.jpg', 'obama3.jpg', 'obama-rotated.jpg', 'obama2.heic'].map(
  (name) => PHOTOS + name,
);
export const STATUS_TEXTS = [
  'Analyzing your photos...',
  'Creating professional headshots...',
  'Almost done...',
];
/** Toasts cover the header in screenshots; they are not what the screenshots are about. */
export const HIDE_TOASTS = '[data-sonner-toaster] { visibility: hidden !important; }';
/** Generating 6 headshots on a busy 2-core machine. */
export const GENERATION_TIMEOUT = 150_000;

/** Waits for every image on the page to have loaded (or failed), so a screenshot shows them. */
export async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
}

/** Uploads `files` on step 1 and waits until every one is stored (the presigned POST accepted it). */
export async function uploadPhotos(page: Page, files: string[]): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(files);
  const thumbnails = page.getByTestId('photo-thumbnail');
  await expectVisible(page.getByText(`Uploaded photos (${files.length}/10)`));
  await page
    .locator('[data-testid="photo-thumbnail"][data-status="uploaded"]')
    .nth(files.length - 1)
    .waitFor({ timeout: 60_000 });
  expect(await thumbnails.count()).toBe(files.length);
  await expectVisible(
    page.getByText(`${files.length} ${files.length === 1 ? 'file' : 'files'} uploaded successfully`),
  );
}

/** Every image in the grid has loaded with real pixels. */
export async function expectHeadshotImagesLoaded(page: Page, count: number): Promise<void> {
  const images = page.getByTestId('headshot').locator('img');
  expect(await images.count()).toBe(count);
  await page.waitForFunction(
    (n) => {
      const imgs = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="headshot"] img'));
      return imgs.length === n && imgs.every((img) => img.complete && img.naturalWidth > 0);
    },
    count,
    { timeout: 30_000 },
  );
}
