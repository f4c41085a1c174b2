import type { Me } from '../contracts';
import { getMe } from '../use-cases/get-me';
import { callerOf, httpHandler, json } from './handler';

/**
 * `GET /api/me` (jwt) → 200 `{ id, email, displayName, credits, creditsOwed, signupBonus, emailWhenReady, createdAt,
 * activeGeneration }` (`creditsOwed`: credits a refund or dispute could not take back, paid first from the next
 * credits received; docs/architecture.md §2) (`emailWhenReady`: the "E-mail me when my headshots are ready" preference, on by default);
 * `signupBonus` is `granted`, or `already-claimed` when an earlier account of the same person (same normalised
 * e-mail) had the free credits, so this one started at 0 (docs/architecture.md §8 "Money"). `highResolution`: whether step 3
 * offers the high-resolution option (docs/product-spec.md §2); `activeGeneration` is the caller's generation still queued or running — `{ id, status, progress, headshotsExpected, regeneratedFrom,
 * createdAt }` — or null, so the wizard and the dashboard of any tab or device can show its progress (they poll
 * `GET /api/generations/{id}` for the rest).
 *
 * Creates the user with 6 free credits on the first call if the Cognito post-confirmation trigger has not already
 * (docs/architecture.md §2): the e-mail comes from the ID token's claims.
 *
 * Errors: 410 `ACCOUNT_DELETED` for a token still valid after its account was deleted (`DELETE /api/me`); 400
 * `VALIDATION_ERROR` when the user does not exist yet and the token carries no e-mail (an access token: sign in
 * again).
 */
export const handler = httpHandler(async (event) => {
  const { sub, email } = callerOf(event);
  return json<Me>(200, await getMe({ sub, email }));
});
