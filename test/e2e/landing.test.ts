import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadAllImages } from './chromium';
import {
  expectVisible,
  RENDER_ALL_SECTIONS,
  saveScreenshot,
  siteUrl,
  usePagePerTest,
  waitForApp,
} from './helpers';

const pages = usePagePerTest();
let page: Page;

async function openLanding(width: number, height = 900): Promise<Page> {
  page = await pages.open(width, height);
  await page.goto(siteUrl('/'));
  // The packs arrive from the API after the first render; wait for them so every check sees the finished page.
  await page.locator('#pricing').getByRole('button', { name: 'Get 60 Credits' }).waitFor();
  await waitForApp(page);
  return page;
}

/** Resolves once `window.scrollY` is above 0 and has not changed for three polls in a row. */
async function waitForScrollToSettle(p: Page, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let stableReads = 0;
  while (Date.now() < deadline) {
    const y = await p.evaluate(() => window.scrollY);
    stableReads = y > 0 && y === last ? stableReads + 1 : 0;
    if (stableReads >= 3) return;
    last = y;
    await p.waitForTimeout(100);
  }
  throw new Error(`scrolling did not settle within ${timeoutMs} ms (scrollY ${last})`);
}

describe('landing page', () => {
  it('shows every section of the spec', async () => {
    const p = await openLanding(1280);

    expect(await p.title()).toContain('Headshot Studio');
    await expect(p.locator('h1').count()).resolves.toBe(1);

    const banner = p.getByRole('banner');
    await expectVisible(banner.getByText('Headshot Studio'));
    await expectVisible(banner.getByRole('link', { name: 'Pricing' }));
    await expectVisible(banner.getByRole('button', { name: 'Sign Up' }));

    await expectVisible(p.getByRole('button', { name: 'Create your headshots now' }));
    await expectVisible(p.getByText('Up to 100 headshots in one pack'));
    await expectVisible(p.getByText('headshots per generation'));

    const galleryImages = p.getByTestId('gallery').getByRole('img');
    await expect(galleryImages.count()).resolves.toBeGreaterThanOrEqual(6);
    await expectVisible(galleryImages.first());
    for (const alt of await galleryImages.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))) {
      expect(alt).toBeTruthy();
    }

    const guarantees = p.getByRole('region', { name: 'What we promise on every generation' });
    await expectVisible(guarantees.getByRole('heading', { level: 3, name: 'Every headshot looks like you' }));
    await expect(guarantees.getByRole('listitem').count()).resolves.toBe(3);

    for (const step of ['Upload photos', 'Choose style', 'AI generates', 'Download']) {
      await expectVisible(p.getByRole('heading', { level: 3, name: new RegExp(`${step}$`) }));
    }

    const likeness = p.getByRole('region', { name: 'How we check likeness' });
    await expectVisible(likeness.getByRole('heading', { level: 3, name: 'We score every headshot' }));
    // No invented proof (issue 35): no ratings, testimonials or customer companies.
    await expect(p.locator('blockquote').count()).resolves.toBe(0);
    for (const invented of ['4.9/5', '4.8/5', 'Northwind', 'Trusted by']) {
      await expect(p.getByText(invented).count()).resolves.toBe(0);
    }

    await expectVisible(p.locator('section#pricing'));
    await expectVisible(p.getByRole('button', { name: 'Get started now' }));

    const footer = p.getByRole('contentinfo');
    await expectVisible(footer);
    await expectVisible(footer.getByRole('link', { name: 'Pricing' }));
    await expectVisible(footer.getByRole('link', { name: 'Dashboard' }));
    await expectVisible(footer.locator('a[href^="mailto:"]'));
    await expectVisible(footer.getByText(`© ${new Date().getFullYear()} Headshot Studio`));
  });

  it('shows the three packs with their prices', async () => {
    const p = await openLanding(1280);
    const pricing = p.locator('#pricing');

    for (const price of ['$35', '$45', '$75']) await expectVisible(pricing.getByText(price, { exact: true }));
    for (const credits of [40, 60, 100]) {
      await expectVisible(pricing.getByRole('button', { name: `Get ${credits} Credits` }));
    }
    await expectVisible(pricing.getByText('Most Popular'));
    await expectVisible(pricing.getByText('$0.875 per credit'));
  });

  it('scrolls to the pricing section from the top bar', async () => {
    const p = await openLanding(1280, 800);
    expect(await p.evaluate(() => window.scrollY)).toBe(0);

    await p.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();

    // Smooth scrolling takes a moment: wait until the position has moved and then stopped changing.
    await waitForScrollToSettle(p);
    expect(await p.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(new URL(p.url()).pathname).toBe('/');

    const section = await p.locator('#pricing').boundingBox();
    const header = await p.getByRole('banner').boundingBox();
    const title = await p.locator('#pricing h2').boundingBox();
    expect(section && header && title).toBeTruthy();
    // In view, and the title is not hidden under the sticky top bar.
    expect(section!.y).toBeLessThan(800);
    expect(section!.y + section!.height).toBeGreaterThan(0);
    expect(title!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    expect(title!.y + title!.height).toBeLessThanOrEqual(800);
  });

  it.each([1280, 390])('fits a %d px wide screen (a screenshot on request)', async (width) => {
    const p = await openLanding(width);
    expect(await loadAllImages(p), 'images that failed to load').toEqual([]);

    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);

    await saveScreenshot(p, `landing-${width}`, { fullPage: true, style: RENDER_ALL_SECTIONS });
  });
});
