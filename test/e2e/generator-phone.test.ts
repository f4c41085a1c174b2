import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  expectHeadshotImagesLoaded,
  GENERATION_TIMEOUT,
  HIDE_TOASTS,
  imagesLoaded,
  PHOTOS,
  uploadPhotos,
} from './generator-support';
import { holdProviderUntil } from './provider-pause';
import { expectVisible, PHONE, screenshotFits, saveScreenshot, siteUrl, useBrowser } from './helpers';
import { expectHighResolutionTotal } from './high-resolution-total';

/*
 * The generator on a phone (390x844, touch) against the whole local stack: a mixed pick whose refused files stay
 * listed with their reasons (issue 35), Creative + Outdoor from three photos (one HEIC), toasts clear of the header,
 * the offline banner, the phone's Back gesture going one step back, and a reload during the generation coming back
 * to its progress (never less than before) and then its results. Screenshots (`E2E_SCREENSHOTS=1`) go to
 * test-results/screenshots/generator-*-390.png.
 */

const e2e = useBrowser();

describe('on a phone', () => {
  it(
    'generates Creative + Outdoor headshots at 390 px with touch: Back goes one step back, a reload keeps the generation',
    async () => {
      const { page } = await e2e.newAccount({ ...PHONE, acceptDownloads: true });
      await page.goto(siteUrl('/generator'));
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Upload your photos' }));

      await pickMixed(page);

      await uploadPhotos(page, [PHOTOS + 'obama2.heic', PHOTOS + 'obama.jpg', PHOTOS + 'obama3.jpg']);
      // The success toast stands clear of the header (Back, the brand, the credits): under it on a phone. Polled, as
      // the toast slides in from above (sonner's enter transition) and its first boxes are still higher.
      const headerBox = await page.getByRole('banner').boundingBox();
      await expect
        .poll(async () => (await page.locator('[data-sonner-toast]').first().boundingBox())?.y ?? -1, {
          timeout: 3_000,
        })
        .toBeGreaterThanOrEqual(headerBox!.y + headerBox!.height);
      await saveScreenshot(page, 'generator-upload-toast-390', {});

      // Offline: the banner says so while the browser is offline, and goes once it is back.
      await page.context().setOffline(true);
      await expectVisible(page.getByTestId('offline-banner'));
      expect(await page.getByTestId('offline-banner').innerText()).toContain("You're offline.");
      await saveScreenshot(page, 'generator-offline-390', {});
      await page.context().setOffline(false);
      await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Continue' }).tap();
      await page.getByText('Creative', { exact: true }).tap();
      await page.getByRole('button', { name: 'Continue' }).tap();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose your background' }));
      expect(new URL(page.url()).searchParams.get('step')).toBe('3');

      // The phone's Back gesture (history back) from step 3 shows step 2 with the style kept, and asks nothing.
      await page.goBack();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose your style' }));
      await expectVisible(page.getByRole('banner').getByText('Step 2 of 4'));
      expect(await page.getByText('Leave the generator?').count()).toBe(0);
      expect(await page.getByRole('radio', { name: 'Creative' }).isChecked()).toBe(true);
      expect(new URL(page.url()).searchParams.get('step')).toBe('2');
      await saveScreenshot(page, 'generator-back-step2-390', { fullPage: true, style: HIDE_TOASTS });
      await page.goForward();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose your background' }));

      await page.getByText('Outdoor', { exact: true }).tap();
      await expectHighResolutionTotal(page);
      // The line for the provider is held until the reloaded page has shown the generation's progress: on a fast
      // machine the 6 headshots were otherwise ready before the reload came back (a CI run failed on exactly that).
      let reloadSeen = false;
      onTestFinished(() => {
        reloadSeen = true;
      });
      const held = holdProviderUntil(() => reloadSeen, 120_000);
      await page.getByRole('button', { name: 'Generate Headshots (6 credits)' }).tap();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Generating your headshots' }));
      await page.waitForURL((u) => u.searchParams.get('step') === '4' && u.searchParams.has('generation'));
      const generationId = new URL(page.url()).searchParams.get('generation');
      await saveScreenshot(page, 'generator-step4-390', { fullPage: true, style: HIDE_TOASTS });

      // A reload while it runs: the same generation's progress (its id is in the URL), then its results.
      // The first poll answered to the reloaded page (a poll of the page being left has no readable body).
      const percentBefore = parseInt(await page.getByTestId('generation-percent').innerText(), 10);
      let polled: { status: string } | null = null;
      const firstPoll = page.waitForResponse(async (r) => {
        if (r.request().method() !== 'GET') return false;
        if (new URL(r.url()).pathname !== `/api/generations/${generationId}`) return false;
        polled = (await r.json().catch(() => null)) as { status: string } | null;
        return polled !== null;
      });
      await page.reload();
      // Progress never goes backwards after a reload (issue 35): the first percent shown is at least the last one.
      const percentAfter = parseInt(await page.getByTestId('generation-percent').innerText(), 10);
      expect(percentAfter).toBeGreaterThanOrEqual(percentBefore);
      await firstPoll;
      expect(polled).not.toBeNull();
      expect(['queued', 'running'], 'still running when the page came back').toContain(polled!.status);
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Generating your headshots' }));
      await expectVisible(page.getByRole('progressbar', { name: 'Generation progress' }));
      await expectVisible(page.getByRole('banner').getByText('Step 4 of 4'));
      await saveScreenshot(page, 'generator-step4-reloaded-390', { fullPage: true, style: HIDE_TOASTS });
      reloadSeen = true;
      await held;

      await page
        .getByRole('heading', { level: 1, name: 'Your headshots are ready!' })
        .waitFor({ timeout: GENERATION_TIMEOUT });
      await expectHeadshotImagesLoaded(page, 6);
      expect(await page.getByTestId('headshot').first().locator('figcaption').innerText()).toMatch(
        /creative\s+outdoor/,
      );
      await screenshotFits(page, 'generator-results-creative-outdoor-390');
      await page.setViewportSize({ width: 1280, height: 900 });
      await imagesLoaded(page);
      await saveScreenshot(page, 'generator-results-creative-outdoor', { fullPage: true });
      await page.context().close();
    },
    GENERATION_TIMEOUT + 90_000,
  );
});

/**
 * Picks a good photo with a PDF named .jpg, a text file named .png and a 19 MB "photo" (over the 10 MB limit), all
 * made in a temporary folder: 6 s later the list of what was not added is still on screen with each reason, and no
 * success toast was shown (issue 35: one was shown over a 4-second warning). Then dismisses the list and removes the
 * photo it added, so the flow goes on from no photos.
 */
async function pickMixed(page: Page): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'mixed-pick-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const scan = join(folder, 'scan.jpg');
  const notes = join(folder, 'notes.png');
  const big = join(folder, 'big.jpg');
  writeFileSync(scan, '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
  writeFileSync(notes, 'Meeting notes, not a picture.\n');
  // A JPEG's first bytes, then zeros: the size rule refuses it before anything reads more.
  const jpegStart = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
  writeFileSync(big, Buffer.concat([jpegStart, Buffer.alloc(19 * 1024 * 1024 - jpegStart.length)]));
  await page.locator('input[type="file"]').setInputFiles([PHOTOS + 'obama.jpg', scan, notes, big]);

  const list = page.getByTestId('drop-report');
  await expectVisible(list);
  await page.waitForTimeout(6000);
  expect(await list.isVisible()).toBe(true);
  expect(await list.getByRole('heading').innerText()).toBe('1 photo added, 3 not added');
  expect(await list.getByRole('listitem').allInnerTexts()).toEqual([
    'scan.jpg is not a photo. Use JPG, PNG or HEIC.',
    'notes.png is not a photo. Use JPG, PNG or HEIC.',
    'big.jpg is 19 MB; the limit is 10 MB.',
  ]);
  expect(await page.getByText('uploaded successfully').count()).toBe(0);
  await saveScreenshot(page, 'generator-mixed-pick-390', { fullPage: true });

  await list.getByRole('button', { name: 'Dismiss the list of files not added' }).tap();
  await list.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Remove photo 1' }).tap();
  await expectVisible(page.getByText('Uploaded photos (0/10)'));
}
