import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { HIDE_TOASTS } from './generator-support';
import { expectVisible, saveScreenshot } from './helpers';

/**
 * Issue 35's acceptance, on step 3 of an account holding 6 credits: with High resolution on, every element of the
 * step states the same total, 12 credits (the option, the credits card, the notice, the disabled button), none the
 * standard 6; switched off again, the card says 6. Leaves the option off.
 *
 * @throws {Error} (an assertion) when an element states another total
 */
export async function expectHighResolutionTotal(page: Page): Promise<void> {
  const option = page.getByRole('switch', { name: /High resolution/ });
  await option.tap();
  const card = page.getByTestId('credits-card');
  await expectVisible(card.getByText('This generation uses 12 credits.'));
  expect(await page.locator('label', { has: option }).innerText()).toContain('12 credits for 6 headshots.');
  await expectVisible(
    page.getByText('You need 12 credits to generate high-resolution headshots, but you only have 6.'),
  );
  expect(await page.getByRole('button', { name: 'Insufficient Credits' }).isDisabled()).toBe(true);
  expect(await page.getByRole('main').innerText()).not.toMatch(/(uses|need|Headshots \() ?6 credits/);
  await saveScreenshot(page, 'generator-high-resolution-390', { fullPage: true, style: HIDE_TOASTS });
  await option.tap();
  await expectVisible(card.getByText('This generation uses 6 credits.'));
}
