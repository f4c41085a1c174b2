import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

/** Where e2e tests write their screenshots (`test-results/screenshots/`), when asked to ({@link saveScreenshot}). */
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/**
 * Whether the e2e files save their screenshots: only with `E2E_SCREENSHOTS=1` (docs/testing.md). They are there for a
 * person to look at what was built, and a CI run looks at none of its ~100 PNGs (issue 32; what they cost:
 * docs/decisions/014-fast-feedback.md "e2e CPU").
 */
const SAVE_SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

let screenshotsFolder: Promise<unknown> | undefined;

/**
 * Saves a screenshot of `page` as `test-results/screenshots/<name>.png` when {@link SAVE_SCREENSHOTS}, else does
 * nothing: the viewport unless `fullPage`, with `style` (CSS) applied, e.g. to hide toasts. A test that asserts on a
 * screenshot's pixels takes it with `page.screenshot` itself, always.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = false, style }: { fullPage?: boolean; style?: string } = {},
): Promise<void> {
  if (!SAVE_SCREENSHOTS) return;
  screenshotsFolder ??= mkdir(SCREENSHOTS, { recursive: true });
  await screenshotsFolder;
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage, style });
}

export { RENDER_ALL_SECTIONS } from './chromium';

/** The absolute URL of `path` on the site under test (`inject('baseUrl')`). */
export const siteUrl = (path: string): string => new URL(path, inject('baseUrl')).href;

/** A user created through the UI by {@link signUpNewUser}. */
export interface E2eUser {
  email: string;
  password: string;
}

/** The password every e2e account gets; it satisfies the user pool's policy. */
export const E2E_PASSWORD = 'Headshots-e2e-2026!';

/** Launches headless Chromium (Debian's, or `CHROMIUM_PATH`) with the flags these machines need. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath() ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * What every e2e browser context starts from: a visitor who prefers reduced motion, which the SPA honours everywhere
 * (`motion-reduce:` variants, frontend/src/index.css). The journeys assert states, not motion, and the spinners, the
 * generation's ping and the landing gallery's marquee otherwise keep Chromium compositing frames through every wait:
 * on `generator.test.ts` its GPU process spent 4.5 s of CPU with motion and 1.1 s without (decision 014, seventh
 * round). `prerendered.test.ts` (the marquee and its pause switch) and `accessibility.test.ts` (the page every visitor
 * gets, audited) make their own contexts, with motion.
 */
export const CONTEXT_DEFAULTS = { reducedMotion: 'reduce' } as const satisfies BrowserContextOptions;

/** A phone's browser context: a 390×844 CSS px viewport with touch, the phone every e2e file tests on. */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
} as const satisfies BrowserContextOptions;

/**
 * The browser context of a screen `width` CSS px wide: a phone ({@link PHONE}'s touch and 844 px height) below 640 px,
 * Tailwind's `sm` breakpoint where the app's layout leaves its phone form; else a 900 px high desktop without touch.
 */
export function screenOf(width: number): BrowserContextOptions {
  return width < 640 ? { ...PHONE, viewport: { width, height: 844 } } : { viewport: { width, height: 900 } };
}

/** The browser of one e2e test file, from {@link useBrowser}. */
export interface E2eBrowser {
  /** The running Chromium; available inside tests and hooks. */
  readonly browser: Browser;
  /** Uncaught page errors, each as `<page URL>: <message>`; the file fails when any remain after its tests. */
  readonly pageErrors: string[];
  /** Records `page`'s uncaught errors in {@link pageErrors} and returns it, for a page made in a context at hand. */
  watch(page: Page): Page;
  /**
   * A page in a new browser context made with `options` (viewport, touch, stored sign-in...), its uncaught errors
   * recorded; close it with `page.context().close()` where a test must end the session.
   */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** A page from {@link newPage}, signed in as a brand-new account through the sign-up form ({@link signUpNewUser}). */
  newAccount(options?: BrowserContextOptions, user?: E2eUser): Promise<{ page: Page; user: E2eUser }>;
}

/**
 * Launches Chromium before the file's tests; after them, closes it and expects no uncaught page error to have been
 * recorded.
 */
export function useBrowser(): E2eBrowser {
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  });
  const e2e: E2eBrowser = {
    get browser() {
      if (!browser) throw new Error('Chromium is not launched yet (use it inside a test or hook)');
      return browser;
    },
    pageErrors,
    watch(page) {
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      return page;
    },
    async newPage(options) {
      const context = await e2e.browser.newContext({ ...CONTEXT_DEFAULTS, ...options });
      return e2e.watch(await context.newPage());
    },
    async newAccount(options, user) {
      const page = await e2e.newPage(options);
      return { page, user: await signUpNewUser(page, inject('baseUrl'), user) };
    },
  };
  return e2e;
}

/**
 * One fresh page per test: `open(width, height)` makes it (in the file's Chromium, from {@link useBrowser}); after
 * each test it is closed and the test fails if the page threw an uncaught error.
 */
export function usePagePerTest(): { open(width?: number, height?: number): Promise<Page> } {
  const e2e = useBrowser();
  let page: Page | undefined;
  afterEach(async () => {
    await page?.close();
    expect(e2e.pageErrors, 'uncaught errors in the page').toEqual([]);
  });
  return {
    async open(width = 1280, height = 900) {
      page = await e2e.browser.newPage({ viewport: { width, height } });
      e2e.pageErrors.length = 0;
      page.on('pageerror', (error) => e2e.pageErrors.push(error.message));
      return page;
    },
  };
}

/** Waits until `locator` is visible, and asserts it is. */
export async function expectVisible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
  expect(await locator.isVisible()).toBe(true);
}

/**
 * Waits until the app has taken over the page. The landing and pricing HTML is rendered at build time and painted
 * before the app's JavaScript loads, which for a signed-out visitor waits for their first sign of use; its buttons
 * then navigate as plain forms (Create Account), not as the app decides. The app has taken over once React listens on `#root` and every control in it is hydrated (React keeps its
 * props on each element it has hydrated): a lazily loaded part, the credit packs, is hydrated after the rest.
 */
export async function waitForApp(page: Page): Promise<void> {
  // A signed-out visitor's landing and pricing pages start the app at their first sign of use (frontend/src/boot.ts):
  // a key press is one, and changes nothing on the page.
  await page.keyboard.press('Shift');
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    const reactOwns = (el: Element, prefix: string) => Object.keys(el).some((key) => key.startsWith(prefix));
    if (!root || !reactOwns(root, '__reactContainer$')) return false;
    return Array.from(root.querySelectorAll('a, button, input, select, textarea')).every((el) =>
      reactOwns(el, '__reactProps$'),
    );
  });
}

/** Waits until the page is at `pathname` (after redirects) and returns its URL. */
export async function waitForPath(page: Page, pathname: string, timeout?: number): Promise<URL> {
  await page.waitForURL((u) => u.pathname === pathname, { timeout });
  return new URL(page.url());
}

/** Waits until every image in the viewport has loaded (lazy ones below stay unloaded), so a screenshot shows them. */
export async function viewportImagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.images)
      .filter((img) => {
        const box = img.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
      })
      .every((img) => img.complete && img.naturalWidth > 0),
  );
}

/** A fresh, unique e-mail address for one test account, e.g. `e2e-payments-1a2b3c4d@example.com`. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * Signs a brand-new account up through the real sign-up form (`/signin?mode=signup`, the Amplify Authenticator)
 * and waits until it lands on `/dashboard` signed in with its 6 free credits. Locally the pre-sign-up trigger
 * confirms the account and Amplify signs it in straight away, so no code is asked for. On a touch screen (a
 * {@link PHONE} context) the button is tapped, as a customer on a phone does (issue 35's acceptance: sign-up by
 * touch).
 */
export async function signUpNewUser(
  page: Page,
  baseUrl: string,
  user: E2eUser = { email: uniqueEmail(), password: E2E_PASSWORD },
): Promise<E2eUser> {
  await page.goto(new URL('/signin?mode=signup&returnTo=%2Fdashboard', baseUrl).href);
  await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(user.password);
  const create = page.getByRole('button', { name: 'Create Account' }).last();
  if (await page.evaluate(() => navigator.maxTouchPoints > 0)) await create.tap();
  else await create.click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
  await page.getByRole('link', { name: '6 credits' }).first().waitFor();
  return user;
}

/** Signs an existing account in through the sign-in form already on screen (`/signin`). */
export async function signInThroughForm(page: Page, user: E2eUser): Promise<void> {
  await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Horizontal overflow of the page in CSS pixels (0 or less when nothing sticks out sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Expects nothing on the page to stick out sideways ({@link horizontalOverflow} ≤ 0 CSS px), always; then, with
 * `E2E_SCREENSHOTS=1`, saves a screenshot as `test-results/screenshots/<name>.png` ({@link saveScreenshot}): the full
 * page unless `fullPage: false`, with `style` (CSS) applied, e.g. to hide toasts.
 */
export async function screenshotFits(
  page: Page,
  name: string,
  { fullPage = true, style }: { fullPage?: boolean; style?: string } = {},
): Promise<void> {
  expect(await horizontalOverflow(page), `${name}: horizontal overflow in CSS px`).toBeLessThanOrEqual(0);
  await saveScreenshot(page, name, { fullPage, style });
}
