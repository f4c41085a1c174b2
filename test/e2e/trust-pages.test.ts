import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectVisible,
  horizontalOverflow,
  PHONE,
  RENDER_ALL_SECTIONS,
  screenOf,
  screenshotFits,
  saveScreenshot,
  siteUrl,
  useBrowser,
  waitForApp,
  waitForPath,
} from './helpers';
import { expectWelcomeAndReceipt } from './purchase-mail';

/*
 * The pages a paying customer looks for (issue 27 item 7), in Chromium against the whole local stack: the footer,
 * the pricing page and the packs' checkout note open the Terms of Service, Privacy Policy and Refund Policy; the
 * Privacy Policy states the retention periods the stack enforces; and, on a phone with touch, a pack bought through
 * the local Checkout provider appears in the dashboard's purchase history with its date, pack, amount, status and
 * Stripe's receipt, and the account's welcome and receipt e-mails arrive in the mail catcher (issue 35).
 * Screenshots (`E2E_SCREENSHOTS=1`): test-results/screenshots/legal-*-{390,1280}.png, purchase-history-390.png.
 */

const e2e = useBrowser();

const PAGES = [
  { path: '/terms', heading: 'Terms of Service', file: 'terms' },
  { path: '/privacy', heading: 'Privacy Policy', file: 'privacy' },
  { path: '/refunds', heading: 'Refund Policy', file: 'refunds' },
] as const;

async function expectLegalPage(page: Page, path: string, heading: string): Promise<void> {
  await waitForPath(page, path);
  await expectVisible(page.getByRole('heading', { level: 1, name: heading }));
  expect(await page.title()).toBe(`${heading} · Headshot Studio`);
}

describe('trust pages', () => {
  it('the landing footer, the pricing page and the checkout note open the three pages (1280 and 390 px)', async () => {
    for (const width of [1280, 390]) {
      const page = await e2e.newPage(screenOf(width));
      const tap = (locator: ReturnType<Page['getByRole']>) =>
        width === 390 ? locator.tap() : locator.click();

      // The landing page's footer names all three.
      for (const { path, heading } of PAGES) {
        await page.goto(siteUrl('/'));
        await waitForApp(page);
        const footer = page.getByRole('contentinfo');
        await tap(footer.getByRole('link', { name: heading }));
        await expectLegalPage(page, path, heading);
      }

      // Where a purchase starts (the packs, on /pricing): buying accepts the Terms and the Refund Policy.
      for (const name of ['Terms of Service', 'Refund Policy'] as const) {
        await page.goto(siteUrl('/pricing'));
        await page.getByRole('button', { name: 'Get 60 Credits' }).waitFor();
        await waitForApp(page);
        await expectVisible(page.getByText('By buying credits you agree to our'));
        await tap(page.getByRole('main').getByRole('link', { name }));
        await expectLegalPage(page, name === 'Terms of Service' ? '/terms' : '/refunds', name);
      }

      // The pricing page's footer, and from one legal page to the others.
      await page.goto(siteUrl('/pricing'));
      await waitForApp(page);
      await tap(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }));
      await expectLegalPage(page, '/privacy', 'Privacy Policy');
      await tap(
        page.getByRole('navigation', { name: 'Other policies' }).getByRole('link', { name: 'Refund Policy' }),
      );
      await expectLegalPage(page, '/refunds', 'Refund Policy');

      for (const { path, heading, file } of PAGES) {
        await page.goto(siteUrl(path));
        await expectLegalPage(page, path, heading);
        await screenshotFits(page, `legal-${file}-${width}`);
      }
      await page.goto(siteUrl('/pricing'));
      await page.getByRole('button', { name: 'Get 60 Credits' }).waitFor();
      await saveScreenshot(page, `legal-pricing-note-${width}`, {
        fullPage: true,
        style: RENDER_ALL_SECTIONS,
      });
      await page.context().close();
    }
  });

  it('states what the stack enforces: the retention periods, the processors, the likeness threshold', async () => {
    const page = await e2e.newPage(screenOf(1280));
    await page.goto(siteUrl('/privacy'));
    const retention = page.getByRole('table');
    await expectVisible(retention.getByRole('row', { name: /Photos you upload 7 days, then deleted/ }));
    await expectVisible(
      retention.getByRole('row', { name: /Generated headshots .* 12 months from the day/ }),
    );
    await expectVisible(retention.getByRole('row', { name: /Usage analytics events 400 days/ }));
    await expectVisible(
      page.getByText(/OpenAI makes the headshots: for each generation we send OpenAI your 3/),
    );
    await expectVisible(page.getByText('Draft: the company details in brackets are placeholders'));

    await page.goto(siteUrl('/refunds'));
    await expectVisible(
      page.getByText(
        'Credits you bought and have not used can be refunded to your card: e-mail support@headshot.studio before you delete your account.',
        { exact: false },
      ),
    );
    await expectVisible(page.getByText(/We deliver a headshot only when it scores at least 55%/));
    await page.context().close();
  });

  it('lists a purchase in the dashboard history on a phone (390x844, touch): date, pack, amount, status, receipt; the welcome and the receipt e-mails arrive', async () => {
    const { page, user } = await e2e.newAccount(PHONE);
    const history = page.getByTestId('purchase-history');
    await expectVisible(
      history.getByText('No purchases yet. Credits you buy will be listed here with their receipts.'),
    );

    await page.goto(siteUrl('/pricing'));
    await page.getByRole('button', { name: 'Get 40 Credits' }).waitFor();
    await waitForApp(page);
    await page.getByRole('button', { name: 'Get 40 Credits' }).tap();
    await page.waitForURL((u) => /^\/pay\/cs_/.test(u.pathname));
    await page.getByRole('button', { name: /^Pay / }).tap();
    await waitForPath(page, '/success');
    await expectVisible(page.getByTestId('new-balance').getByText('46 credits'));
    await waitForPath(page, '/dashboard', 10_000);

    const row = history.getByTestId('purchase');
    await expectVisible(row);
    expect(await row.count()).toBe(1);
    const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date());
    await expectVisible(row.getByRole('cell', { name: today, exact: true }));
    await expectVisible(row.getByText('Starter Pack · 40 credits'));
    await expectVisible(row.getByText('$35', { exact: true }));
    await expectVisible(row.getByText('Paid', { exact: true }));
    const receipt = row.getByRole('link', { name: /^Receipt/ });
    await expectVisible(receipt);
    expect(await receipt.getAttribute('target')).toBe('_blank');
    expect(await receipt.getAttribute('href')).toMatch(/\/receipts\/ch_/);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // The receipt opens in a new tab at the Checkout provider's receipt page.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), receipt.tap()]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toMatch(/^\/receipts\/ch_/);
    await tab.close();

    // Issue 35's acceptance on a phone: the account signed up and bought by touch gets its welcome and its receipt.
    await expectWelcomeAndReceipt(
      user,
      { name: 'Starter Pack', credits: 40, amount: '$35.00' },
      await receipt.getAttribute('href'),
    );

    await history.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'purchase-history-390', { fullPage: true });
    await page.context().close();
  });
});
