import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDE_TOASTS, PHOTOS } from './generator-support';
import { PHONE, screenOf, saveScreenshot, siteUrl, useBrowser } from './helpers';

/*
 * Photo checks and likeness in Chromium against the whole local stack: five photos of one person plus one of
 * another person; the other person is marked and not used, and so is obama-rotated.jpg, the same picture as
 * obama.jpg (stored rotated with an EXIF tag); the generated headshots, the gallery cards and the
 * viewer show their likeness; the gallery sorts by best match; two photos of two people are both warned. Screenshots
 * (`E2E_SCREENSHOTS=1`) go to test-results/screenshots/faces-*.
 */

const NAMES = ['obama.jpg', 'obama2.jpg', 'obama3.jpg', 'obama-720p.jpg', 'obama-rotated.jpg', 'biden.jpg'];

const e2e = useBrowser();

let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ page } = await e2e.newAccount(screenOf(1280)));
  context = page.context();
});

afterAll(async () => {
  await context?.close();
});

describe('photo checks and likeness in the browser', () => {
  it('marks the other person and the other copies of a picture, and uses only the good ones', async () => {
    await page.goto(siteUrl('/generator'));
    await page.locator('input[type="file"]').setInputFiles(NAMES.map((n) => PHOTOS + n));
    const quality = page.getByTestId('photo-set-quality');
    await quality.waitFor({ timeout: 90_000 });
    expect(await quality.textContent()).toMatch(/^Photo set quality: \d{1,3}%$/);

    const tiles = page.getByTestId('photo-thumbnail');
    // obama-720p.jpg (photo 4) is obama.jpg letterboxed, and obama-rotated.jpg (photo 5) obama.jpg stored rotated:
    // both copies of photo 1 (docs/decisions/024-near-duplicates.md).
    expect(await tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-verdict')))).toEqual([
      'good',
      'good',
      'good',
      'rejected',
      'rejected',
      'rejected',
    ]);
    // The reasons are behind the verdict's button: a tap (here a click) shows them, no hover needed.
    const copy = tiles.nth(4).getByRole('button', { name: 'Photo 5: Not used. Why?' });
    await copy.click();
    const copyReasons = tiles.nth(4).locator(`[id="${await copy.getAttribute('aria-controls')}"]`);
    await copyReasons.waitFor({ state: 'visible' });
    expect(await copyReasons.textContent()).toContain(
      "This looks like the same picture as photo 1, so we'll only use it once. Please use a different photo.",
    );
    const biden = tiles.nth(5).getByRole('button', { name: 'Photo 6: Not used. Why?' });
    await biden.click();
    expect(await copy.getAttribute('aria-expanded')).toBe('false');
    const bidenReasons = tiles.nth(5).locator(`[id="${await biden.getAttribute('aria-controls')}"]`);
    await bidenReasons.waitFor({ state: 'visible' });
    expect(await bidenReasons.textContent()).toContain('different person');
    await saveScreenshot(page, 'faces-step1', { fullPage: true, style: HIDE_TOASTS });
    expect(await page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true);
  });

  it('shows a likeness badge on every headshot, in the results, the gallery and the viewer', async () => {
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Professional', { exact: true }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Studio', { exact: true }).click();
    await page.getByRole('button', { name: 'Generate Headshots (6 credits)' }).click();

    const cards = page.getByTestId('headshot');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="headshot"] [data-testid="likeness-badge"]').length === 6,
      undefined,
      // Read twice a second over the generation's minute or two, not on every animation frame (the default).
      { timeout: 180_000, polling: 500 },
    );
    const badges = cards.getByTestId('likeness-badge').getByRole('button');
    for (const name of await badges.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))) {
      expect(name).toMatch(/^\d{1,3}% match with your photos\. What does this mean\?$/);
    }
    // What the percent means is a tap away.
    await badges.first().click();
    await cards
      .first()
      .getByText(/^How closely this headshot matches the face in your photos/)
      .waitFor();
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
    await saveScreenshot(page, 'faces-results', { fullPage: true, style: HIDE_TOASTS });

    await page.goto(siteUrl('/dashboard'));
    await page.getByRole('combobox', { name: 'Sort headshots' }).selectOption('best-match');
    await page.waitForURL((u) => u.searchParams.get('sort') === 'best-match');
    const galleryBadges = page.locator('article [data-testid="likeness-badge"] > button');
    // The previous (newest-first) page stays on screen until the sorted one arrives, and the list may render again
    // between two reads: wait for a read of all six badges in best-match order.
    const sortedReads = async () => {
      const values = (await galleryBadges.allTextContents()).map((t) => Number(/^(\d+)%/.exec(t)![1]));
      return values.length === 6 && values.every((v, i) => i === 0 || values[i - 1]! >= v);
    };
    await expect.poll(sortedReads, { timeout: 30_000 }).toBe(true);
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
    await saveScreenshot(page, 'faces-gallery', { fullPage: true, style: HIDE_TOASTS });

    await page
      .getByRole('button', { name: /^View full size/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('likeness-badge').waitFor();
    await saveScreenshot(page, 'faces-viewer', { style: HIDE_TOASTS });
  });

  it('on a phone, shows why a photo is not used and removes it, by tap', async () => {
    const { page: tap } = await e2e.newAccount({ ...PHONE, deviceScaleFactor: 2 });
    try {
      await tap.goto(siteUrl('/generator'));
      // Three of one person and one of another: the identity check needs a clear majority to name the odd one out.
      await tap
        .locator('input[type="file"]')
        .setInputFiles(['obama.jpg', 'obama2.jpg', 'obama3.jpg', 'biden.jpg'].map((n) => PHOTOS + n));
      const rejected = tap.locator('[data-testid="photo-thumbnail"][data-verdict="rejected"]');
      await rejected.waitFor({ timeout: 90_000 });
      await rejected.getByRole('button', { name: 'Photo 4: Not used. Why?' }).tap();
      await rejected.getByText(/different person/).waitFor();
      await saveScreenshot(tap, 'faces-step1-phone', { style: HIDE_TOASTS });
      // The reasons close on a tap elsewhere; the "Not used" label leaves the remove button free to tap.
      await tap.getByRole('heading', { level: 1 }).tap();
      await rejected.getByRole('button', { name: 'Remove photo 4' }).tap();
      await expect.poll(() => tap.getByTestId('photo-thumbnail').count()).toBe(3);
      expect(
        await tap
          .getByTestId('photo-thumbnail')
          .evaluateAll((els) => els.map((el) => el.getAttribute('data-verdict'))),
      ).toEqual(['good', 'good', 'good']);
    } finally {
      await tap.context().close();
    }
  });

  it('warns both photos when two show different people, and clears the warning once one is removed', async () => {
    // No majority to name the odd one out (docs/decisions/012-small-set-identity.md): both are usable, both warned.
    const pair = e2e.watch(await context.newPage());
    try {
      await pair.goto(siteUrl('/generator'));
      await pair
        .locator('input[type="file"]')
        .setInputFiles(['obama.jpg', 'biden.jpg'].map((n) => PHOTOS + n));
      const tiles = pair.getByTestId('photo-thumbnail');
      const verdicts = () => tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-verdict')));
      await expect.poll(verdicts, { timeout: 90_000 }).toEqual(['warning', 'warning']);
      const why = tiles.nth(1).getByRole('button', { name: 'Photo 2: Usable, could be better. Why?' });
      await why.click();
      const reasons = tiles.nth(1).locator(`[id="${await why.getAttribute('aria-controls')}"]`);
      await reasons.waitFor({ state: 'visible' });
      expect(await reasons.textContent()).toContain(
        "Your photos seem to show different people, and we can't tell which one is you. Please remove any photo that isn't you.",
      );
      await saveScreenshot(pair, 'faces-step1-mixed-people', { style: HIDE_TOASTS });
      await pair.getByRole('heading', { level: 1 }).click();
      await tiles.nth(1).getByRole('button', { name: 'Remove photo 2' }).click();
      await expect.poll(verdicts, { timeout: 90_000 }).toEqual(['good']);
    } finally {
      await pair.close();
    }
  });
});
