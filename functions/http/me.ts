import { getGeneration } from '../adapters/generations';
import { getUser } from '../adapters/ledger';
import { ensureUser } from '../adapters/user-creation';
import type { ActiveGeneration, Me } from '../contracts';
import { AccountDeletedError } from '../domain/errors';
import { HEADSHOTS_PER_GENERATION } from '../domain/slots';
import { isTerminal } from '../domain/generation-status';
import { badRequest } from './errors';
import { callerOf, httpHandler, json } from './handler';
import { highResolutionAvailable } from '../config/high-resolution';

/**
 * The caller's generation still in flight, from the user item's `lastGenerationId` (at most one is in flight per
 * user: docs/architecture.md §2), or null when it ended or there is none. One strongly consistent GetItem, and only
 * for a user who ever generated.
 */
async function activeGeneration(sub: string, lastGenerationId: string | undefined) {
  if (!lastGenerationId) return null;
  const generation = await getGeneration(sub, lastGenerationId);
  if (!generation || isTerminal(generation.status)) return null;
  return {
    id: generation.id,
    status: generation.status === 'queued' ? 'queued' : 'running',
    progress: generation.progress,
    headshotsExpected: generation.slotCount ?? HEADSHOTS_PER_GENERATION,
    regeneratedFrom: generation.regeneratedFrom ?? null,
    createdAt: generation.createdAt,
  } satisfies ActiveGeneration;
}

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
 * Errors: 410 `ACCOUNT_DELETED` for a token still valid after its account was deleted (`DELETE /api/me`).
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  let user = await getUser(caller.sub);
  if (!user) {
    // Only ID tokens carry the e-mail; an access token can read an existing user but cannot create one.
    if (!caller.email)
      throw badRequest('Your sign-in token carries no e-mail address. Please sign in again.');
    user = await ensureUser(caller.sub, caller.email);
  }
  if (user.deletedAt) throw new AccountDeletedError();
  return json<Me>(200, {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    credits: user.credits,
    signupBonus: user.signupBonus,
    creditsOwed: user.creditsOwed,
    emailWhenReady: user.emailWhenReady,
    highResolution: highResolutionAvailable(),
    createdAt: user.createdAt,
    activeGeneration: await activeGeneration(caller.sub, user.lastGenerationId),
  });
});
