import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

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

/** A fresh, unique e-mail address for one test account, e.g. `e2e-payments-1a2b3c4d@example.com`. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * Signs a brand-new account up through the real sign-up form (`/signin?mode=signup`, the Amplify Authenticator)
 * and waits until it lands on `/dashboard` signed in with its 6 free credits. Locally the pre-sign-up trigger
 * confirms the account and Amplify signs it in straight away, so no code is asked for.
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
  await page.getByRole('button', { name: 'Create Account' }).last().click();
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
