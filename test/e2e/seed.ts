import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { seedGeneration, type SeededGeneration } from '../helpers/gallery';

/*
 * Data a browser test needs but does not test, written straight to the e2e stack's table and bucket instead of made
 * through the app: a finished generation for a journey whose subject is what comes after one (the gallery, the
 * results screen). A real generation through the wizard costs the stack its face models, encoders and workflow
 * (issue 32; docs/decisions/014-fast-feedback.md "e2e CPU"); generator.test.ts, generator-phone.test.ts, queue.test.ts
 * and photo-checks.test.ts still generate for real.
 */

/**
 * The Cognito `sub` of the account signed in on `page`: the `sub` claim of the ID token Amplify keeps in the page's
 * local storage (`CognitoIdentityServiceProvider.<client>.<user>.idToken`).
 *
 * @throws when no one is signed in on the page
 */
export async function signedInSub(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('.idToken'));
    return key ? localStorage.getItem(key) : null;
  });
  if (!token) throw new Error('No ID token in local storage: is the user signed in?');
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string };
  return payload.sub;
}

/**
 * A finished generation of 6 headshots for the account signed in on `page`, its 6 credits spent
 * (test/helpers/gallery.ts `seedGeneration`: one `style` and `background`, the `local` provider's previews, every
 * file at its real size). The page shows it once it reads the gallery again (a reload).
 */
export async function seedGenerationFor(
  page: Page,
  options?: Parameters<typeof seedGeneration>[1],
): Promise<SeededGeneration> {
  // The table, the bucket and their endpoints: the e2e stack's, which this test process does not have by default.
  Object.assign(process.env, inject('e2eStack').env);
  return seedGeneration(await signedInSub(page), options);
}
