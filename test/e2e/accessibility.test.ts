import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PHOTOS, uploadPhotos } from './generator-support';
import {
  expectVisible,
  RENDER_ALL_SECTIONS,
  screenOf,
  saveScreenshot,
  signUpNewUser,
  siteUrl,
  useBrowser,
  waitForApp,
  waitForPath,
} from './helpers';

/*
 * axe-core (Deque's accessibility engine, MPL-2.0) on every screen, in Chromium against the whole local stack, at a
 * phone's 390 px (touch) and a desktop's 1280 px: the landing page, pricing, sign-in and create account, the three
 * legal pages, the dashboard (with a purchase), creating a team, a team's page and an invitation link's page (issue 37),
 * the generator's steps 1-3 (and step 3 for a team), the payment result (success) and the "payment not completed" page. The WCAG 2.0, 2.1 and 2.2 level A and AA rules run; every violation fails the test,
 * listed by screen, rule and element. With `E2E_SCREENSHOTS=1`, each
 * screen is also saved to test-results/screenshots/a11y-<screen>-<width>.png.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The rule sets of WCAG 2.0, 2.1 and 2.2, levels A and AA (axe-core's tags). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const e2e = useBrowser();

/** One violated rule on one screen: the rule, its impact and the elements that break it. */
interface Violation {
  screen: string;
  rule: string;
  impact: string | null | undefined;
  help: string;
  elements: string[];
}

/** The timer functions Playwright's clock replaces, which axe-core's run needs. */
const TIMERS = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'requestAnimationFrame',
] as const;
type Timers = { [Name in (typeof TIMERS)[number]]: Window[Name] };

declare global {
  interface Window {
    /** The browser's own timers, kept before the clock is installed (see {@link open}). */
    __realTimers?: Timers;
    axe: {
      run(
        context: Document,
        options: { runOnly: { type: 'tag'; values: string[] }; resultTypes: string[] },
      ): Promise<{
        violations: {
          id: string;
          impact?: string | null;
          help: string;
          nodes: { target: unknown[]; failureSummary?: string }[];
        }[];
      }>;
    };
  }
}

/** Injects axe-core into `page`, runs the WCAG A/AA rules on the whole document and returns what they found. */
async function audit(page: Page, screen: string): Promise<Violation[]> {
  // Animations and transitions end at once, so colours are measured as they settle, not mid-fade.
  await page.addStyleTag({
    content:
      '*, *::before, *::after { animation-duration: 0s !important; transition-duration: 0s !important; }',
  });
  // Off-screen sections the browser has not laid out yet are skipped by axe's colour checks: lay them all out.
  await page.addStyleTag({ content: RENDER_ALL_SECTIONS });
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(
    async ({ tags, timers }) => {
      // Where the page's clock is stopped (the payment result's countdown), axe gets the browser's own timers back
      // for its run; the page's timers stay stopped.
      const faked = timers.map((name) => [name, window[name]] as const);
      for (const name of timers)
        Object.assign(window, { [name]: window.__realTimers?.[name] ?? window[name] });
      const result = await window.axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .finally(() => {
          for (const [name, fn] of faked) Object.assign(window, { [name]: fn });
        });
      return result.violations.map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        elements: v.nodes.map((n) => `${JSON.stringify(n.target)}: ${n.failureSummary ?? ''}`),
      }));
    },
    { tags: WCAG_AA, timers: [...TIMERS] },
  );
  const width = page.viewportSize()?.width ?? 0;
  await saveScreenshot(page, `a11y-${screen}-${width}`, { fullPage: true });
  return violations.map((v) => ({ screen: `${screen} @${width}`, ...v }));
}

async function open(width: number): Promise<Page> {
  const context = await e2e.browser.newContext(screenOf(width));
  // Runs before the clock's own script (init scripts run in the order they were added).
  await context.addInitScript(
    (names) => {
      window.__realTimers = Object.fromEntries(
        names.map((name) => [name, window[name].bind(window)]),
      ) as unknown as Timers;
    },
    [...TIMERS],
  );
  return e2e.watch(await context.newPage());
}

describe('accessibility (axe-core, WCAG 2 A and AA)', () => {
  for (const width of [390, 1280]) {
    it(`finds no violation on any screen at ${width} px`, async () => {
      const page = await open(width);
      const found: Violation[] = [];

      // Public screens.
      await page.goto(siteUrl('/'));
      await waitForApp(page);
      await expectVisible(page.getByRole('heading', { level: 1 }));
      found.push(...(await audit(page, 'landing')));

      await page.goto(siteUrl('/pricing'));
      await page.getByRole('button', { name: 'Get 60 Credits' }).waitFor();
      await waitForApp(page);
      found.push(...(await audit(page, 'pricing')));

      for (const [path, name] of [
        ['/terms', 'terms'],
        ['/privacy', 'privacy'],
        ['/refunds', 'refunds'],
      ] as const) {
        await page.goto(siteUrl(path));
        await waitForApp(page);
        await page.getByRole('heading', { level: 1 }).waitFor();
        found.push(...(await audit(page, name)));
      }

      await page.goto(siteUrl('/signin'));
      await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
      found.push(...(await audit(page, 'sign-in')));
      await page.goto(siteUrl('/signin?mode=signup'));
      await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();
      found.push(...(await audit(page, 'create-account')));

      // Signed in: a purchase, its result, the dashboard with it.
      await signUpNewUser(page, inject('baseUrl'));
      await page.goto(siteUrl('/pricing'));
      await page.getByRole('button', { name: 'Get 40 Credits' }).waitFor();
      await waitForApp(page);
      await page.getByRole('button', { name: 'Get 40 Credits' }).click();
      await page.waitForURL((u) => /^\/pay\/cs_/.test(u.pathname));
      // The success page counts down to the dashboard: the page's clock stops once it shows, so axe reads it.
      await page.clock.install();
      await page.getByRole('button', { name: /^Pay / }).click();
      await waitForPath(page, '/success');
      await expectVisible(page.getByTestId('new-balance').getByText('46 credits'));
      await page.clock.pauseAt(Date.now() + 500);
      found.push(...(await audit(page, 'payment-success')));
      await page.clock.resume();

      await page.goto(siteUrl('/checkout/cancelled?pack=starter'));
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Payment not completed' }));
      found.push(...(await audit(page, 'payment-not-completed')));

      await page.goto(siteUrl('/dashboard'));
      await expectVisible(page.getByTestId('purchase-history').getByTestId('purchase'));
      await expectVisible(page.getByText('No headshots yet'));
      found.push(...(await audit(page, 'dashboard')));

      // Teams (issue 37): creating one, its page as the owner, and an invitation link's page.
      await page.goto(siteUrl('/teams/new'));
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Create a team' }));
      found.push(...(await audit(page, 'team-create')));
      await page.getByLabel('Company name').fill('Acme');
      await page.getByLabel('E-mail domains (optional)').fill('acme-a11y.example');
      await page.getByRole('button', { name: 'Create team' }).click();
      await page.waitForURL((u) => /^\/teams\/[0-9A-Z]{26}$/.test(u.pathname));
      const teamId = new URL(page.url()).pathname.split('/')[2]!;
      const invite = page.getByRole('region', { name: 'Invite' });
      await invite.getByRole('button', { name: 'Create link' }).click();
      const link = await invite.getByLabel('Copy this link now: it is shown only once.').inputValue();
      await expectVisible(page.getByText('No one has shared a headshot yet.'));
      found.push(...(await audit(page, 'team')));
      await page.goto(siteUrl(new URL(link).pathname));
      await expectVisible(page.getByRole('button', { name: 'Join team' }));
      found.push(...(await audit(page, 'join')));

      // The generator's steps 1-3.
      await page.goto(siteUrl('/generator'));
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Upload your photos' }));
      found.push(...(await audit(page, 'generator-step1-empty')));
      await uploadPhotos(page, [PHOTOS + 'obama.jpg']);
      found.push(...(await audit(page, 'generator-step1')));
      await page.getByRole('button', { name: 'Continue' }).click();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose your style' }));
      await page.getByText('Professional', { exact: true }).click();
      found.push(...(await audit(page, 'generator-step2')));
      await page.getByRole('button', { name: 'Continue' }).click();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose your background' }));
      await page.getByText('Studio', { exact: true }).click();
      found.push(...(await audit(page, 'generator-step3')));
      // The wizard for a team: the team's card instead of the credits (the tab's draft keeps the photo).
      await page.goto(siteUrl(`/generator?team=${teamId}&step=3`));
      await expectVisible(page.getByTestId('team-card'));
      found.push(...(await audit(page, 'generator-team-step3')));

      await page.context().close();
      expect(found).toEqual([]);
    }, 420_000);
  }
});
