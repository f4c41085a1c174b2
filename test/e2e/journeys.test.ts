import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  CognitoIdentityProviderClient,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GENERATION_TIMEOUT, PHOTOS } from './generator-support';
import { CONTEXT_DEFAULTS, saveScreenshot, signUpNewUser, siteUrl, useBrowser, waitForApp } from './helpers';
import { seedGenerationFor } from './seed';

/*
 * Product analytics, the wizard that survives a purchase, the payment countdown and "Regenerate (1 credit)", in
 * Chromium against the whole local stack. One signed-in account walks through the purchase and generation steps.
 */

const e2e = useBrowser();

const analyticsDir = () => inject('e2eStack').env.ANALYTICS_DIR!;

/** Every analytics record the local sink has written so far. */
function records(): { event_name: string; path: string | null; user_sub: string | null }[] {
  const dir = analyticsDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { event_name: string; path: string | null; user_sub: string | null });
}

async function newPage(context: BrowserContext, width = 1280, height = 900): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  return page;
}

describe('product analytics', () => {
  it('page views reach .local/analytics; with Do Not Track on, none do', async () => {
    const probe = `/probe-${Date.now()}`;
    const tracked = await e2e.browser.newContext(CONTEXT_DEFAULTS);
    const page = await newPage(tracked);
    await page.goto(siteUrl(`${probe}-tracked`));
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // The heading is in the prerendered HTML, painted before the app loads: wait until the app has queued the page
    // view (its first event gives the visitor an anonymous id).
    await page.waitForFunction(() => localStorage.getItem('hs.analytics.anonymousId') !== null);
    // Hiding the page hands the batch to navigator.sendBeacon.
    await page.close({ runBeforeUnload: true });
    await expect
      .poll(() => records().some((r) => r.event_name === 'page_view' && r.path === `${probe}-tracked`), {
        timeout: 15_000,
      })
      .toBe(true);
    await tracked.close();

    const dnt = await e2e.browser.newContext(CONTEXT_DEFAULTS);
    await dnt.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
    });
    const quiet = await newPage(dnt);
    const sent: string[] = [];
    quiet.on('request', (r) => {
      if (r.url().includes('/api/analytics/events')) sent.push(r.url());
    });
    await quiet.goto(siteUrl(`${probe}-dnt`));
    await quiet.getByRole('heading', { level: 1 }).first().waitFor();
    await quiet.goto(siteUrl('/pricing'));
    await quiet.getByRole('button', { name: 'Get 60 Credits' }).waitFor();
    // Longer than the 3-second flush, then hidden: still nothing.
    await quiet.waitForTimeout(3_500);
    expect(
      await quiet.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('hs.analytics'))),
    ).toEqual([]);
    await quiet.close({ runBeforeUnload: true });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sent).toEqual([]);
    expect(records().some((r) => r.path === `${probe}-dnt`)).toBe(false);
    await dnt.close();
  });
});

describe('a signed-in journey', () => {
  it('Buy More from step 3 → pay → Start Generating → step 3 as left; generate; regenerate one → 7, credits −1', async () => {
    const context = await e2e.browser.newContext({ ...CONTEXT_DEFAULTS, acceptDownloads: true });
    const page = await newPage(context);
    await signUpNewUser(page, inject('baseUrl'));

    // The 6 free credits spent first, so step 3 says 'No credits left' with Buy More: a finished generation
    // seeded straight into the table (this journey is about the wizard kept across a purchase; the wizard's first
    // generation, and its 'Generate More Headshots', are generator.test.ts's).
    await seedGenerationFor(page, { style: 'business-casual', background: 'studio' });
    await page.goto(siteUrl('/generator'));
    await page.getByRole('link', { name: '0 credits' }).first().waitFor();

    // A fresh wizard: photos, a style and a background, then Buy More with 0 credits.
    await page
      .locator('input[type="file"]')
      .setInputFiles([PHOTOS + 'obama3.jpg', PHOTOS + 'obama-720p.jpg']);
    await page
      .locator('[data-testid="photo-thumbnail"][data-status="uploaded"]')
      .nth(1)
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Creative', { exact: true }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Outdoor', { exact: true }).click();
    await page.getByText('No credits left').waitFor();
    await page.getByRole('link', { name: 'Buy More', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/pricing');
    await page.getByRole('button', { name: 'Get 40 Credits' }).click();
    await page.waitForURL((u) => /^\/pay\/cs_/.test(u.pathname));
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((u) => u.pathname === '/success');
    await page.getByRole('heading', { level: 1, name: 'Payment Successful!' }).waitFor();
    // Bought from the wizard: no countdown to the dashboard, a way back to the wizard (issue 27.4).
    await page.getByText('Your photos and choices are kept.').waitFor();
    await page.getByRole('link', { name: 'Back to your headshots' }).click();

    // Back at step 3 with the same photos, style and background; the new balance.
    await page.waitForURL((u) => u.pathname === '/generator');
    await page.getByRole('heading', { level: 1, name: 'Choose your background' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Outdoor' }).isChecked()).toBe(true);
    await page.getByText('40 credits').first().waitFor();
    await saveScreenshot(page, 'generator-step3-after-checkout', { fullPage: true });
    await page.getByRole('button', { name: 'Back' }).first().click();
    expect(await page.getByRole('radio', { name: 'Creative' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Back' }).first().click();
    await page.getByText('Uploaded photos (2/10)').waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('button', { name: 'Generate Headshots (6 credits)' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Your headshots are ready!' })
      .waitFor({ timeout: GENERATION_TIMEOUT });
    await page.getByRole('link', { name: '34 credits' }).first().waitFor();
    expect(await page.getByTestId('headshot').count()).toBe(6);

    await page.getByRole('button', { name: 'Regenerate (1 credit): headshot 2' }).click();
    await page.getByTestId('headshot').nth(6).waitFor({ timeout: GENERATION_TIMEOUT });
    expect(await page.getByTestId('headshot').count()).toBe(7);
    await page.getByRole('link', { name: '33 credits' }).first().waitFor();
    await saveScreenshot(page, 'generator-regenerated', { fullPage: true });
    await context.close();
  });

  it('the payment countdown reads "Redirecting to dashboard in N seconds..." at 3 and 2, "1 second" at 1, then /dashboard', async () => {
    const context = await e2e.browser.newContext(CONTEXT_DEFAULTS);
    const page = await newPage(context);
    await signUpNewUser(page, inject('baseUrl'));
    await page.goto(siteUrl('/pricing'));
    await waitForApp(page);
    await page.getByRole('button', { name: 'Get 40 Credits' }).click();
    await page.waitForURL((u) => /^\/pay\/cs_/.test(u.pathname));
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((u) => u.pathname === '/success');
    await page.evaluate(() => {
      const w = window as unknown as { __texts: string[] };
      w.__texts = [];
      const read = () => {
        const t = Array.from(document.querySelectorAll('p'))
          .map((p) => p.textContent ?? '')
          .find((x) => x.startsWith('Redirecting to dashboard'));
        if (t && w.__texts.at(-1) !== t) w.__texts.push(t);
      };
      read();
      new MutationObserver(read).observe(document.body, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 20_000 });
    const texts = await page.evaluate(() => (window as unknown as { __texts?: string[] }).__texts ?? []);
    expect(texts).toEqual([
      'Redirecting to dashboard in 3 seconds...',
      'Redirecting to dashboard in 2 seconds...',
      'Redirecting to dashboard in 1 second...',
    ]);
    await context.close();
  });
});

describe('session tokens', () => {
  /** Sets the local web client's access/ID token lifetime (what LOCAL_TOKEN_LIFETIME_SECONDS does at start). */
  async function tokenLifetime(seconds: number): Promise<void> {
    const { runtimeConfig } = inject('e2eStack');
    const cognito = new CognitoIdentityProviderClient({
      region: runtimeConfig.region,
      endpoint: runtimeConfig.cognitoEndpoint ?? undefined,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await cognito.send(
      new UpdateUserPoolClientCommand({
        UserPoolId: runtimeConfig.userPoolId,
        ClientId: runtimeConfig.userPoolClientId,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        AccessTokenValidity: seconds,
        IdTokenValidity: seconds,
        RefreshTokenValidity: 30,
        TokenValidityUnits: { AccessToken: 'seconds', IdToken: 'seconds', RefreshToken: 'days' },
      }),
    );
    cognito.destroy();
  }

  it('refreshes a short-lived session within 30 s of expiry instead of signing the user out', async () => {
    await tokenLifetime(40);
    try {
      const context = await e2e.browser.newContext(CONTEXT_DEFAULTS);
      const page = await newPage(context);
      const refreshes: string[] = [];
      page.on('request', (r) => {
        if ((r.headers()['x-amz-target'] ?? '').endsWith('.GetTokensFromRefreshToken'))
          refreshes.push(r.url());
      });
      await signUpNewUser(page, inject('baseUrl'));
      const before = refreshes.length;
      // 40-second tokens are within the 30-second margin after 10 s: the next API call refreshes first.
      await page.waitForTimeout(11_000);
      const me = page.waitForResponse((r) => r.url().endsWith('/api/me'));
      await page.reload();
      expect((await me).status()).toBe(200);
      expect(refreshes.length).toBeGreaterThan(before);
      await page.getByRole('link', { name: '6 credits' }).first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      await context.close();
    } finally {
      await tokenLifetime(900);
    }
  });
});
