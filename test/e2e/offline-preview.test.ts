import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadAllImages } from './chromium';
import { HIDE_TOASTS } from './generator-support';
import {
  expectVisible,
  PHONE,
  screenOf,
  screenshotFits,
  signInThroughForm,
  siteUrl,
  useBrowser,
} from './helpers';
import { seedGenerationFor } from './seed';

/*
 * Headshots made by the offline `local` provider (the local stack has no OpenAI key) say what they are: the results
 * screen and the dashboard show the offline-preview notice, verbatim, and every card a "Preview" badge. A customer
 * on a phone (390×844, touch) opens the results of their finished generation (seeded straight into the table and the
 * bucket, test/e2e/seed.ts: that the local provider's real headshots are marked previews is checked where the wizard
 * generates, generator.test.ts); the same account is then looked at on a desktop. Screenshots, with
 * `E2E_SCREENSHOTS=1`: test-results/screenshots/offline-*.
 */

const NOTICE =
  'Preview headshots: these are your own photos, cut out and placed on a new background, not AI headshots, because the AI image service is not connected here. Each one carries a "PREVIEW" mark.';

const e2e = useBrowser();

async function screenshot(page: Page, name: string): Promise<void> {
  expect(await loadAllImages(page), `${name}: images that failed`).toEqual([]);
  await screenshotFits(page, name, { style: HIDE_TOASTS });
}

/** The notice is on screen, with exactly the words of docs/product-spec.md (issue 35's customer words). */
async function expectNotice(page: Page): Promise<void> {
  const notice = page.getByTestId('offline-preview-notice');
  await expectVisible(notice);
  expect((await notice.innerText()).replace(/\s+/g, ' ').trim()).toBe(NOTICE);
}

describe('offline previews', () => {
  it('say so on the results screen and the dashboard, on a phone and on a desktop', async () => {
    const { page: phone, user } = await e2e.newAccount({ ...PHONE, deviceScaleFactor: 2 });
    const { id } = await seedGenerationFor(phone, { style: 'professional', background: 'studio' });

    // The API says which headshots are previews: every one the local provider made. Waited for as a response (its
    // body read before the assertion), not recorded by a listener: the heading can show before a listener's parse ends.
    const isGenerationRead = (response: Response) =>
      response.request().method() === 'GET' &&
      /\/api\/generations\/[^/]+$/.test(response.url()) &&
      response.ok();
    const generationRead = phone.waitForResponse(isGenerationRead);
    // The wizard's results screen, as a reload or the e-mail's link opens it (`?step=4&generation=<id>`).
    await phone.goto(siteUrl(`/generator?step=4&generation=${id}`));
    const last = (await (await generationRead).json()) as { headshots: { preview: boolean }[] };
    await phone.getByRole('heading', { level: 1, name: 'Your headshots are ready!' }).waitFor();
    expect(last.headshots.map((h) => h.preview)).toEqual([true, true, true, true, true, true]);

    await expectNotice(phone);
    const cards = phone.getByTestId('headshot');
    expect(await cards.count()).toBe(6);
    for (let i = 0; i < 6; i += 1) await expectVisible(cards.nth(i).getByTestId('preview-badge'));
    await screenshot(phone, 'offline-results-390');
    // The results screen's desktop-sized look, from the same page.
    await phone.setViewportSize({ width: 1280, height: 900 });
    await screenshot(phone, 'offline-results');
    await phone.setViewportSize({ width: 390, height: 844 });

    await phone.goto(siteUrl('/dashboard'));
    await phone.getByTestId('headshot-card').nth(5).waitFor();
    await expectNotice(phone);
    expect(await phone.getByTestId('preview-badge').count()).toBe(6);
    await screenshot(phone, 'offline-dashboard-390');
    await phone.context().close();

    // The same account on a desktop: the headshots are still previews there.
    const desktop = await e2e.newPage(screenOf(1280));
    await desktop.goto(siteUrl('/signin?returnTo=%2Fdashboard'));
    await signInThroughForm(desktop, user);
    await desktop.waitForURL((u) => u.pathname === '/dashboard');
    await desktop.getByTestId('headshot-card').nth(5).waitFor();
    await expectNotice(desktop);
    await screenshot(desktop, 'offline-dashboard');
    await desktop.context().close();
  }, 360_000);
});
