import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  expectVisible,
  horizontalOverflow,
  SCREENSHOTS,
  signInThroughForm,
  signUpNewUser,
  siteUrl,
  type E2eUser,
  useBrowser,
  waitForPath,
  waitForApp,
} from './helpers';

/*
 * Payments in Chromium against the whole local stack, with the local Checkout provider standing in for
 * Stripe: a new user (6 credits) cancels, declines, then pays for the Popular Pack and ends with 66 credits.
 */

const SUPPORT_EMAIL = 'support@headshot.studio';
const FAILED_TEXT = "We couldn't verify your payment. Please contact our support team for assistance.";

const e2e = useBrowser();
const { pageErrors } = e2e;

const url = siteUrl;

async function newPage(context: BrowserContext, width = 1280, height = 900): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  return page;
}

/** The header's credit count, e.g. '6 credits'. */
function creditsBadge(page: Page, credits: number): Locator {
  return page.getByRole('banner').getByRole('link', { name: `${credits} credits` });
}

async function openPricing(page: Page): Promise<void> {
  await page.goto(url('/pricing'));
  await page.getByRole('button', { name: 'Get 60 Credits' }).waitFor();
  await waitForApp(page);
}

/** Clicks a pack's buy button and waits for the local Checkout provider's hosted page. */
async function startCheckout(page: Page, credits: number): Promise<URL> {
  await page.getByRole('button', { name: `Get ${credits} Credits` }).click();
  await page.waitForURL((u) => /^\/pay\/cs_/.test(u.pathname));
  await page.getByRole('heading', { name: 'Pay with card' }).waitFor();
  return new URL(page.url());
}

describe('pricing page, signed out', () => {
  it('shows the packs to everyone and asks for sign-in to buy', async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context, 390, 844);
    await openPricing(page);

    await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose Your Credit Pack' }));
    await expectVisible(page.getByText('Each photo costs 1 credit'));
    await expectVisible(page.getByText('New users get 6 free credits to try the service!'));
    const banner = page.getByRole('banner');
    await expectVisible(banner.getByRole('button', { name: 'Back' }));
    await expectVisible(banner.getByRole('link', { name: 'Home', exact: true }));
    await expectVisible(banner.getByRole('link', { name: 'Dashboard', exact: true }));
    await expect(banner.getByRole('link', { name: /credits$/ }).count()).resolves.toBe(0);
    expect(await horizontalOverflow(page), 'horizontal overflow in px').toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Get 40 Credits' }).click();
    await expectVisible(page.getByText('Please sign in to purchase credits'));
    const signIn = await waitForPath(page, '/signin');
    expect(signIn.searchParams.get('returnTo')).toBe('/pricing');
    await context.close();
  });

  it('Back on a page opened directly goes to /dashboard (which asks for sign-in)', async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await openPricing(page);

    await page.getByRole('banner').getByRole('button', { name: 'Back' }).click();
    const signIn = await waitForPath(page, '/signin');
    expect(signIn.searchParams.get('returnTo')).toBe('/dashboard');
    await context.close();
  });
});

describe('buying credits through the local checkout', () => {
  let context: BrowserContext;
  let page: Page;
  let user: E2eUser;
  let paidSuccessUrl: string;
  let declinedSuccessUrl: string;

  beforeAll(async () => {
    context = await e2e.browser.newContext();
    page = await newPage(context);
    user = await signUpNewUser(page, inject('baseUrl'));
  });

  afterAll(async () => {
    await context?.close();
  });

  it('a new user sees the pricing page with their 6 credits', async () => {
    await openPricing(page);
    await expectVisible(creditsBadge(page, 6));
    for (const item of [
      'Secure Payment',
      'Protected by a card payment provider',
      'Instant Access',
      'Commercial Rights',
    ]) {
      await expectVisible(page.getByText(item, { exact: true }));
    }
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENSHOTS}pricing.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(creditsBadge(page, 6));
    expect(await horizontalOverflow(page), 'overflow at 390 px').toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENSHOTS}pricing-390.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await horizontalOverflow(page), 'overflow at 360 px').toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('Cancel on the checkout page returns to /pricing with 6 credits', async () => {
    await openPricing(page);
    await startCheckout(page, 100);
    await expectVisible(page.getByText('100 AI Headshot Credits'));

    await page.getByRole('button', { name: /^Cancel/ }).click();

    await waitForPath(page, '/pricing');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose Your Credit Pack' }));
    await expectVisible(creditsBadge(page, 6));
  });

  it("Decline shows 'Payment Verification Failed' and adds nothing", async () => {
    await openPricing(page);
    await startCheckout(page, 40);

    await page.getByRole('button', { name: 'Decline payment' }).click();

    const result = await waitForPath(page, '/success');
    expect(result.searchParams.get('session_id')).toMatch(/^cs_/);
    declinedSuccessUrl = result.href;
    const card = page.locator('section[aria-labelledby="payment-result-title"]');
    await expectVisible(card.getByRole('heading', { level: 1, name: 'Payment Verification Failed' }));
    await expectVisible(card.getByText(FAILED_TEXT));
    expect(await card.getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe('/pricing');
    expect(await card.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(await card.getByRole('link', { name: SUPPORT_EMAIL }).getAttribute('href')).toBe(
      `mailto:${SUPPORT_EMAIL}`,
    );
    await expectVisible(page.getByText('Payment verification failed. Please contact support.'));
    await expectVisible(creditsBadge(page, 6));
    await page.screenshot({ path: `${SCREENSHOTS}payment-failed.png`, fullPage: true });

    await card.getByRole('link', { name: 'Try Again' }).click();
    await waitForPath(page, '/pricing');
    await expectVisible(creditsBadge(page, 6));
  });

  it("pays for the Popular Pack: 'Payment Successful!' with 66 credits, then /dashboard after ~3 s", async () => {
    await openPricing(page);
    const checkout = await startCheckout(page, 60);
    expect(checkout.origin).not.toBe(new URL(inject('baseUrl')).origin);
    await expectVisible(page.getByText('60 AI Headshot Credits'));
    await expectVisible(page.getByText('$45.00').first());
    await page.screenshot({ path: `${SCREENSHOTS}checkout-local.png`, fullPage: true });

    await page.getByRole('button', { name: /^Pay / }).click();

    const result = await waitForPath(page, '/success');
    expect(result.searchParams.get('redirect')).toBe('dashboard');
    paidSuccessUrl = result.href;
    const card = page.locator('section[aria-labelledby="payment-result-title"]');
    await expectVisible(card.getByRole('heading', { level: 1, name: 'Payment Successful!' }));
    const shownAt = Date.now();
    await expectVisible(card.getByTestId('new-balance').getByText('66 credits'));
    await expectVisible(card.getByText(/^Redirecting to dashboard in [1-3] seconds?\.\.\.$/));
    await expectVisible(card.getByRole('link', { name: 'Go to Dashboard' }));
    expect(await card.getByRole('link', { name: 'Start Generating' }).getAttribute('href')).toBe(
      '/generator',
    );
    expect(await card.getByRole('link', { name: SUPPORT_EMAIL }).getAttribute('href')).toBe(
      `mailto:${SUPPORT_EMAIL}`,
    );
    await expectVisible(creditsBadge(page, 66));
    await page.screenshot({ path: `${SCREENSHOTS}payment-success.png`, fullPage: true });

    await waitForPath(page, '/dashboard', 10_000);
    const elapsed = Date.now() - shownAt;
    expect(elapsed, 'ms from the success screen to /dashboard').toBeGreaterThan(1500);
    expect(elapsed).toBeLessThan(6000);
    await expectVisible(page.getByRole('link', { name: '66 credits' }).first());
  });

  it('both result screens fit a 390 px phone; verifying a paid session again adds nothing', async () => {
    const phone = await newPage(context, 390, 844);
    await phone.goto(paidSuccessUrl);
    const card = phone.locator('section[aria-labelledby="payment-result-title"]');
    await expectVisible(card.getByRole('heading', { level: 1, name: 'Payment Successful!' }));
    await expectVisible(card.getByTestId('new-balance').getByText('66 credits'));
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: `${SCREENSHOTS}payment-success-390.png`, fullPage: true });
    await waitForPath(phone, '/dashboard', 10_000);

    await phone.goto(declinedSuccessUrl);
    await expectVisible(card.getByRole('heading', { level: 1, name: 'Payment Verification Failed' }));
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: `${SCREENSHOTS}payment-failed-390.png`, fullPage: true });
    await phone.close();
  });

  it('a signed-out return from checkout signs in first, then verifies', async () => {
    const fresh = await e2e.browser.newContext();
    const other = await newPage(fresh);
    await other.goto(paidSuccessUrl);

    const signIn = await waitForPath(other, '/signin');
    const returnTo = signIn.searchParams.get('returnTo');
    expect(returnTo).toBe(`${new URL(paidSuccessUrl).pathname}${new URL(paidSuccessUrl).search}`);
    await signInThroughForm(other, user);

    await waitForPath(other, '/success');
    await expectVisible(other.getByRole('heading', { level: 1, name: 'Payment Successful!' }));
    await expectVisible(other.getByTestId('new-balance').getByText('66 credits'));
    await fresh.close();
  });

  it('/success without a session_id goes to /pricing', async () => {
    await page.goto(url('/success?redirect=dashboard'));
    await waitForPath(page, '/pricing');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose Your Credit Pack' }));
  });
});
