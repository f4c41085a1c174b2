import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { CREDIT_PACKS } from '../../functions/domain/packs';
import { formatPrice } from '../../frontend/src/lib/format-price';
import { PAGE_VIEW_ARMED_MARK } from '../../frontend/src/lib/analytics/page-view-before-app';
import { CONFIG_ATTEMPTS } from '../../frontend/src/lib/runtime-config';
import { expectVisible, saveScreenshot, useBrowser, waitForApp } from './helpers';

/*
 * Issue 27 "taps that always work", on the production build served as CloudFront serves it (the landing and pricing
 * pages prerendered, every other path the empty shell; `vite preview` with /api proxied to the local stack), which is
 * the site of every e2e file (test/global-setup.ts). On a 390×844 phone with touch: buttons tapped before the app's
 * script has run still go where they should, the prices are in the HTML, and a failing /config.json is asked for
 * again and never replaces a rendered page.
 */

const e2e = useBrowser();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** A fresh 390×844 phone with touch (and, with `javaScriptEnabled: false`, one that never runs the app). */
async function phone(options: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<Page> {
  const { width = 390, javaScriptEnabled = true } = options;
  const context = await e2e.browser.newContext({
    viewport: { width, height: width === 390 ? 844 : 800 },
    hasTouch: true,
    isMobile: width === 390,
    javaScriptEnabled,
  });
  contexts.push(context);
  return e2e.watch(await context.newPage());
}

const at = (path: string) => new URL(path, inject('baseUrl')).href;

/** The analytics events the local stack has stored (one JSON object per line, in `ANALYTICS_DIR`). */
function analyticsRecords(): { event_name: string; path: string | null; anonymous_id: string | null }[] {
  const dir = inject('localStack').env.ANALYTICS_DIR;
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map(
      (line) => JSON.parse(line) as { event_name: string; path: string | null; anonymous_id: string | null },
    );
}
const here = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};
/** Whether React has taken over `#root` (hydrateRoot or createRoot has run). */
const appRuns = (page: Page) =>
  page.evaluate(() => Object.keys(document.getElementById('root')!).some((k) => k.startsWith('__react')));

describe('before the app has loaded', () => {
  it("a tap on the prerendered 'Sign Up' opens Create Account", async () => {
    const page = await phone();
    // The app's script is held until the tap: the page is the build's HTML alone, as on a slow phone network.
    const held: Route[] = [];
    let holding = true;
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      if (holding) held.push(route);
      else await route.continue();
    });
    await page.goto(at('/'), { waitUntil: 'commit' });
    const signUp = page.getByRole('banner').getByRole('button', { name: 'Sign Up' });
    await expectVisible(signUp);
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await appRuns(page)).toBe(false);

    await signUp.tap();

    await page.waitForURL((u) => u.pathname === '/signin', { waitUntil: 'commit' });
    expect(here(page)).toBe('/signin?mode=signup&returnTo=%2Fdashboard');
    holding = false;
    // The landing's requests were abandoned by the navigation; the sign-in page's go through now.
    for (const route of held.splice(0)) await route.continue().catch(() => undefined);
    await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();
  });

  it.each(['/', '/pricing'])(
    '%s shows every pack with its price and buy button in its HTML',
    async (path) => {
      const page = await phone({ javaScriptEnabled: false });
      await page.goto(at(path));

      for (const pack of CREDIT_PACKS) {
        const card = page.getByRole('article', { name: pack.name });
        await expectVisible(card.getByText(formatPrice(pack.priceCents, pack.currency), { exact: true }));
        await expectVisible(card.getByRole('button', { name: `Get ${pack.credits} Credits` }));
      }
      if (path === '/') {
        await expectVisible(page.getByRole('banner').getByRole('button', { name: 'Sign Up' }));
        // The gallery's pause switch is read by the stylesheet: it stops the strip without the app too.
        const strip = page.getByTestId('gallery').locator(':scope > div');
        const playState = () => strip.evaluate((el) => getComputedStyle(el).animationPlayState);
        expect(await playState()).toBe('running');
        await page.locator('label').filter({ hasText: 'Pause gallery' }).tap();
        expect(await page.getByRole('switch', { name: 'Pause gallery' }).isChecked()).toBe(true);
        expect(await playState()).toBe('paused');
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      const name = path === '/' ? 'landing' : path.slice(1);
      await saveScreenshot(page, `${name}-no-script-390`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await saveScreenshot(page, `${name}-no-script-1280`);
    },
  );

  it("a pack's button and Back work on /pricing without the app", async () => {
    const page = await phone({ javaScriptEnabled: false });
    await page.goto(at('/pricing'));
    await page.getByRole('button', { name: 'Get 60 Credits' }).tap();
    await page.waitForURL((u) => u.pathname === '/signin');
    // Create Account, then back to /pricing, where the Popular Pack's purchase resumes once signed in.
    expect(here(page)).toBe(`/signin?mode=signup&returnTo=${encodeURIComponent('/pricing?buy=popular')}`);

    await page.goto(at('/pricing'));
    await page.getByRole('banner').getByRole('button', { name: 'Back' }).tap();
    await page.waitForURL((u) => u.pathname === '/');
  });
});

describe('when the app starts on a prerendered page', () => {
  it('for a signed-out visitor, at their first touch, not before', async () => {
    const page = await phone();
    const reactDom = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').some((r) => /\/assets\/react-dom-[^/]*\.js$/.test(r.name)),
      );
    await page.goto(at('/'), { waitUntil: 'load' });
    await expectVisible(page.getByRole('heading', { level: 1, name: /Professional headshots/ }));
    // Nothing on the page needs the app until it is used: React is not even downloaded.
    await page.waitForTimeout(1_500);
    expect(await appRuns(page)).toBe(false);
    expect(await reactDom()).toBe(false);

    await page.touchscreen.tap(5, 420);
    await expect.poll(() => appRuns(page), { timeout: 30_000 }).toBe(true);
    expect(await reactDom()).toBe(true);
  });

  it('a signed-out visitor who leaves without any input still counts one page view', async () => {
    const page = await phone();
    const anonymousId = `bouncer${Date.now()}`;
    await page.addInitScript((id) => localStorage.setItem('hs.analytics.anonymousId', id), anonymousId);
    await pageViewArmed(page, () => page.goto(at('/')));
    expect(await appRuns(page)).toBe(false);
    // Closing the tab hides the page: the page view leaves by beacon, without the app.
    await page.close({ runBeforeUnload: true });
    const views = () => pageViews(anonymousId);
    await expect.poll(() => views().length, { timeout: 15_000 }).toBe(1);
    expect(views()[0]!.path).toBe('/');
  });

  it('a visitor who switches away, comes back and uses the page counts one page view, not two', async () => {
    const page = await phone();
    const anonymousId = `returner${Date.now()}`;
    await page.addInitScript((id) => localStorage.setItem('hs.analytics.anonymousId', id), anonymousId);
    await pageViewArmed(page, () => page.goto(at('/')));
    // Another tab in front, then this one again (the document's visibility, as the browser reports a tab switch).
    await page.evaluate(() => {
      const setVisibility = (state: DocumentVisibilityState) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      setVisibility('hidden');
      setVisibility('visible');
    });
    await expect.poll(() => pageViews(anonymousId).length, { timeout: 15_000 }).toBe(1);
    // Back on the page, the first touch starts the app; its router does not count this page again.
    await waitForApp(page);
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Pricing' }).tap();
    await page.waitForURL((u) => u.pathname === '/pricing');
    // The app's own batch goes out 3 s after its first event: the pricing view, and no second view of the landing.
    await expect
      .poll(() => pageViews(anonymousId).map((r) => r.path), { timeout: 15_000 })
      .toEqual(['/', '/pricing']);
  });

  it('for a visitor who may be signed in, as soon as the page has painted', async () => {
    const page = await phone();
    // Amplify's keys for some app client, there before the page's scripts run: the visitor's own header (their
    // credits) needs the app.
    await page.addInitScript(() =>
      localStorage.setItem('CognitoIdentityServiceProvider.client.LastAuthUser', 'x'),
    );
    await page.goto(at('/pricing'));
    await expect.poll(() => appRuns(page), { timeout: 30_000 }).toBe(true);
  });
});

/**
 * Runs `load` (a signed-out visit to a prerendered page) and waits until the page view that does not need the app
 * has its settings: its own /config.json request, answered, comes before the app's (frontend/src/boot.ts).
 */
async function pageViewArmed(page: Page, load: () => Promise<unknown>): Promise<void> {
  await load();
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, PAGE_VIEW_ARMED_MARK);
}

/** The page views the local stack has stored for one anonymous visitor, in the order they were sent. */
function pageViews(anonymousId: string) {
  return analyticsRecords().filter((r) => r.anonymous_id === anonymousId && r.event_name === 'page_view');
}

describe('/config.json', () => {
  it('failing twice is asked for again, and the landing page is hydrated', async () => {
    const page = await phone();
    let requests = 0;
    let appAsked = false;
    await page.route('**/config.json', async (route) => {
      if (!appAsked) await route.continue();
      else if (++requests <= 2) await route.fulfill({ status: 503, body: 'Service Unavailable' });
      else await route.continue();
    });
    await pageViewArmed(page, () => page.goto(at('/')));
    appAsked = true;
    await waitForApp(page);
    expect(requests).toBe(3);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);

    // The app decides now (it navigates in place): Create Account for this new visitor.
    await page.getByRole('banner').getByRole('button', { name: 'Sign Up' }).tap();
    await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();
    expect(here(page)).toBe('/signin?mode=signup&returnTo=%2Fdashboard');
  });

  it.each([390, 1280])(
    'always failing keeps the rendered landing page and offers to try again (%d px)',
    async (width) => {
      const page = await phone({ width });
      let failing = true;
      let requests = 0;
      let appAsked = false;
      await page.route('**/config.json', async (route) => {
        if (!appAsked) return route.continue();
        requests++;
        if (failing) await route.fulfill({ status: 503, body: 'Service Unavailable' });
        else await route.continue();
      });
      await pageViewArmed(page, () => page.goto(at('/')));
      appAsked = true;
      // The app (and its /config.json) starts at the visitor's first sign of use.
      await page.keyboard.press('Shift');
      const note = page.getByRole('alert').filter({ hasText: "We couldn't finish loading the page." });
      await note.waitFor({ timeout: 30_000 });
      expect(requests).toBe(CONFIG_ATTEMPTS);
      await expectVisible(page.getByRole('heading', { level: 1, name: /Professional headshots/ }));
      await expect(page.getByText('Something went wrong').count()).resolves.toBe(0);
      await saveScreenshot(page, `landing-start-failed-${width}`);

      failing = false;
      await note.getByRole('button', { name: 'Try again' }).tap();
      await note.waitFor({ state: 'detached' });
      await waitForApp(page);
      await expectVisible(page.getByRole('heading', { level: 1, name: /Professional headshots/ }));
    },
  );

  it.each([390, 1280])(
    'always failing on a page without prerendered HTML shows the error with a working retry (%d px)',
    async (width) => {
      const page = await phone({ width });
      let failing = true;
      await page.route('**/config.json', async (route) => {
        if (failing) await route.fulfill({ status: 503, body: 'Service Unavailable' });
        else await route.continue();
      });
      await page.goto(at('/dashboard'));
      const error = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
      await error.waitFor({ timeout: 30_000 });
      await saveScreenshot(page, `config-error-${width}`);

      failing = false;
      await error.getByRole('button', { name: 'Try again' }).tap();
      // The app starts in place: /dashboard needs a signed-in customer, so sign-in it is.
      await page.waitForURL((u) => u.pathname === '/signin');
      expect(await appRuns(page)).toBe(true);
    },
  );
});
