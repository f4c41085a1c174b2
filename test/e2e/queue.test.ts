import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { purchaseSk, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos, type GenerationView } from '../helpers/generation';
import { HIDE_TOASTS, PHOTOS } from './generator-support';
import { CONTEXT_DEFAULTS, launchBrowser, saveScreenshot, signUpNewUser } from './helpers';
import { holdProviderUntil } from './provider-pause';

/*
 * The line for the image provider, in Chromium: the e2e stack admits 6 provider calls at once across all customers
 * (PROVIDER_MAX_CONCURRENCY=6). Two Pro buyers' generations are in line first (priority generation) while the
 * provider answers 429 with a short Retry-After; a new customer who then generates in the wizard sees their place in
 * line under the progress bar, then — once the provider takes calls again — their 6 headshots. Screenshots
 * (`E2E_SCREENSHOTS=1`) go to test-results/screenshots/queue-*.png.
 */

let browser: Browser;
const baseUrl = inject('baseUrl');
const { env, runtimeConfig } = inject('e2eStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

/** Another customer's generation (a Pro buyer's), started through the API. */
async function otherCustomerGenerates(): Promise<{ user: TestUser; id: string }> {
  const user = await createTestUser(pool);
  expect((await api(baseUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  // A Pro buyer: "Priority generation" puts their generation ahead of the new customer's (a head start), so the
  // line stays in front of the new customer.
  await documentClient().send(
    new PutCommand({
      TableName: storageSettings().TABLE_NAME,
      Item: {
        PK: userPk(user.sub),
        SK: purchaseSk(`cs_test_${user.sub}`),
        type: 'purchase',
        packId: 'pro',
        credits: 100,
      },
    }),
  );
  const keys = await uploadPhotos(baseUrl, user.idToken, [
    fixturePhoto('obama.jpg'),
    fixturePhoto('obama2.jpg'),
  ]);
  const res = await api(baseUrl, user.idToken, 'POST', '/api/generations', {
    style: 'creative',
    background: 'studio',
    referenceKeys: keys,
  });
  expect(res.status).toBe(202);
  return { user, id: ((await res.json()) as { id: string }).id };
}

async function view(user: TestUser, id: string): Promise<GenerationView> {
  return (await (await api(baseUrl, user.idToken, 'GET', `/api/generations/${id}`)).json()) as GenerationView;
}

beforeAll(async () => {
  // createTestUser talks to the stack's cognito-local; the Pro purchases below go to its DynamoDB Local table.
  Object.assign(process.env, env);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('a generation that waits for the image provider', () => {
  let page: Page;

  it('shows its place in line under the progress bar, then its headshots', { timeout: 240_000 }, async () => {
    const context = await browser.newContext(CONTEXT_DEFAULTS);
    page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpNewUser(page, baseUrl);

    await page.goto(new URL('/generator', baseUrl).href);
    await page
      .locator('input[type="file"]')
      .setInputFiles(['obama.jpg', 'obama2.jpg', 'obama3.jpg'].map((f) => PHOTOS + f));
    await page
      .locator('[data-testid="photo-thumbnail"][data-status="uploaded"]')
      .nth(2)
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Professional', { exact: true }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Office', { exact: true }).click();

    // The provider is throttling: two Pro buyers' generations (12 slots, two rounds of the 6 calls the stack admits at
    // once) wait in line ahead of this customer: enough for a line in front of it, and each more costs six renders.
    let seenInLine = false;
    onTestFinished(() => {
      seenInLine = true;
    });
    const throttled = holdProviderUntil(() => seenInLine, 150_000);
    const others = [];
    for (let i = 0; i < 2; i += 1) others.push(await otherCustomerGenerates());

    const queued: number[] = [];
    page.on('response', async (response) => {
      if (response.request().method() !== 'GET' || !/\/api\/generations\/[^/]+$/.test(response.url())) return;
      const body = (await response.json().catch(() => null)) as GenerationView | null;
      if (body?.queue && body.queue.position > 0) queued.push(body.queue.position);
    });
    await page.getByRole('button', { name: 'Generate Headshots (6 credits)' }).click();

    const line = page.getByTestId('generation-queue');
    await line.waitFor({ state: 'visible', timeout: 60_000 });
    const text = (await line.textContent()) ?? '';
    expect(text).toMatch(/You're (in line — \d+ generations? ahead of you|next in line), about \d+ minutes?/);
    expect(text).toContain("You can close this page; we'll e-mail you when your headshots are ready.");
    expect(await page.getByText('Generating your headshots').isVisible()).toBe(true);
    // The time line comes from the line's ETA while it waits (issue 35), not from a constant.
    expect(await page.getByTestId('generation-time').textContent()).toMatch(
      /^Your headshots start in about \d+ minutes?\.$/,
    );
    await saveScreenshot(page, 'queue-waiting', { fullPage: true, style: HIDE_TOASTS });
    // The provider takes calls again: the line drains, priority first.
    seenInLine = true;
    await throttled;

    await page
      .getByRole('heading', { level: 1, name: 'Your headshots are ready!' })
      .waitFor({ timeout: 200_000 });
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="headshot"] img')).every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    expect(await page.getByTestId('headshot').count()).toBe(6);
    expect(await line.count()).toBe(0);
    expect(queued.length).toBeGreaterThan(0);
    await saveScreenshot(page, 'queue-ready', { fullPage: true, style: HIDE_TOASTS });
    expect(errors).toEqual([]);

    // The customers ahead got theirs too.
    for (const other of others) {
      for (;;) {
        const v = await view(other.user, other.id);
        if (['succeeded', 'partial', 'failed'].includes(v.status)) {
          expect(v.status).toBe('succeeded');
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    await context.close();
  });
});
