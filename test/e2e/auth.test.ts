import { randomUUID } from 'node:crypto';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_WRONG_CREDENTIALS } from '../../frontend/src/features/auth/utils/sign-in-errors';
import {
  expectVisible,
  saveScreenshot,
  siteUrl,
  usePagePerTest,
  viewportImagesLoaded,
  waitForApp,
  waitForPath,
} from './helpers';

const REDIRECT_TEXT = 'Redirecting to sign in...';

const pages = usePagePerTest();
let page: Page;

async function openPage(width = 1280, height = 900): Promise<Page> {
  page = await pages.open(width, height);
  // Records whether the redirect message was ever on screen: it may show only for a moment before /signin opens.
  await page.addInitScript((text) => {
    const w = window as unknown as { __sawRedirect?: boolean };
    new MutationObserver(() => {
      if (document.body?.innerText.includes(text)) w.__sawRedirect = true;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, REDIRECT_TEXT);
  return page;
}

describe('accounts', () => {
  const email = `e2e-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Headshots-e2e-2026!';

  it('signs up a fresh e-mail without a code, shows 6 credits, signs out and back in', async () => {
    const p = await openPage();

    // Landing, signed out: 'Sign Up' opens the sign-in screen on its Sign Up tab.
    await p.goto(siteUrl('/'));
    await waitForApp(p);
    const banner = p.getByRole('banner');
    await banner.getByRole('button', { name: 'Sign Up' }).click();
    const signUpUrl = await waitForPath(p, '/signin');
    expect(signUpUrl.searchParams.get('mode')).toBe('signup');
    expect(signUpUrl.searchParams.get('returnTo')).toBe('/dashboard');
    await expectVisible(p.getByRole('heading', { name: 'Create your account' }));
    await expectVisible(p.getByRole('tab', { name: 'Create Account', selected: true }));
    await viewportImagesLoaded(p);
    await saveScreenshot(p, 'signup');

    // Sign up: cognito-local's pre-sign-up trigger confirms the account, Amplify signs it in straight away.
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password', { exact: true }).fill(password);
    await p.getByLabel('Confirm password', { exact: true }).fill(password);
    await p.getByRole('button', { name: 'Create Account' }).last().click();

    await waitForPath(p, '/dashboard');
    await expectVisible(p.getByRole('link', { name: '6 credits' }));
    expect(await p.getByRole('link', { name: '6 credits' }).getAttribute('href')).toBe('/pricing');
    await expect(p.getByText('Enter the code', { exact: false }).count()).resolves.toBe(0);
    // Amplify UI's stylesheet stays loaded after /signin; it must not restyle the app's own buttons.
    const signOutFont = await p
      .getByRole('button', { name: 'Sign out' })
      .evaluate((button) => getComputedStyle(button).fontWeight);
    expect(signOutFont).toBe('600');
    await saveScreenshot(p, 'dashboard-signed-in');

    // Landing, signed in: the top bar says Go to Dashboard and shows the credits.
    await p.goto(siteUrl('/'));
    await expectVisible(banner.getByRole('button', { name: 'Go to Dashboard' }));
    await expectVisible(banner.getByRole('link', { name: '6 credits' }));
    await expect(banner.getByRole('button', { name: 'Sign Up' }).count()).resolves.toBe(0);
    await viewportImagesLoaded(p);
    await saveScreenshot(p, 'landing-signed-in');

    // The calls to action go straight to the dashboard.
    await p.getByRole('button', { name: 'Create your headshots now' }).click();
    await waitForPath(p, '/dashboard');

    // Sign out from the dashboard: back on the landing page, signed out.
    await p.getByRole('button', { name: 'Sign out' }).click();
    await waitForPath(p, '/');
    await expectVisible(banner.getByRole('button', { name: 'Sign Up' }));

    // /dashboard, signed out: the redirect message, then the sign-in form coming back to /dashboard.
    await p.goto(siteUrl('/dashboard'));
    const signInUrl = await waitForPath(p, '/signin');
    expect(signInUrl.searchParams.get('returnTo')).toBe('/dashboard');
    expect(await p.evaluate(() => (window as unknown as { __sawRedirect?: boolean }).__sawRedirect)).toBe(
      true,
    );
    await expectVisible(p.getByRole('heading', { name: 'Welcome back' }));
    await expectVisible(p.getByRole('tab', { name: 'Sign In', selected: true }));
    await expectVisible(p.getByLabel('Email'));
    await viewportImagesLoaded(p);
    await saveScreenshot(p, 'signin');

    // Signing in again returns to /dashboard; the free credits were granted exactly once.
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password', { exact: true }).fill(password);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForPath(p, '/dashboard');
    await expectVisible(p.getByRole('link', { name: '6 credits' }));
  });

  it('shows the sign-in screen on a phone and rejects a wrong password', async () => {
    const p = await openPage(390, 844);
    await p.goto(siteUrl('/signin?returnTo=https%3A%2F%2Fevil.example'));
    await expectVisible(p.getByRole('heading', { name: 'Welcome back' }));

    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    await saveScreenshot(p, 'signin-390', { fullPage: true });

    await p.getByLabel('Email').fill(`nobody-${randomUUID().slice(0, 8)}@example.com`);
    await p.getByLabel('Password', { exact: true }).fill('Wrong-password-1!');
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    // An unknown account reads as a deleted one does: the customer's words, not Cognito's (issue 35).
    const alert = p.getByRole('alert');
    await expectVisible(alert);
    expect((await alert.innerText()).trim()).toBe(SIGN_IN_WRONG_CREDENTIALS);
    await saveScreenshot(p, 'signin-refused-390', { fullPage: true });
    expect(new URL(p.url()).pathname).toBe('/signin');
  });
});
