import { getGeneration } from '../adapters/generations';
import { getHeadshot } from '../adapters/headshots';
import { REGENERATE_SLOTS } from '../domain/generation';
import { HttpError } from './errors';
import { headshotIdOf, headshotNotFound } from './headshot-view';
import { assertReferencesStored, startGeneration } from './generation-start';
import { callerOf, httpHandler } from './handler';

/**
 * `POST /api/headshots/{id}/regenerate` (jwt, owner only) → 202, the same answer as `POST /api/generations` with
 * `creditsReserved: 1`.
 *
 * "Regenerate (1 credit)": a one-slot generation with the style, background and reference photos of the headshot's
 * own generation, through the same workflow — 1 credit spent atomically with the new generation item, refunded if
 * the slot fails. Its headshot is an ordinary headshot of the gallery; `regeneratedFrom` on the generation names the
 * original so the SPA shows them side by side.
 *
 * Errors: 404 `NOT_FOUND` (unknown headshot, another user's, or its generation is gone), 409 `PHOTOS_EXPIRED` (the
 * reference photos are no longer stored: uploads expire after 7 days), 402 `INSUFFICIENT_CREDITS` ('Insufficient
 * credits! You need 1 credits but only have 0.'), 409 `ACCOUNT_DELETING`, 429 `QUOTA_EXCEEDED` while another
 * generation of the caller is running, 502 `WORKFLOW_START_FAILED` (refunded).
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const headshot = await getHeadshot(caller.sub, headshotIdOf(event));
  if (!headshot) throw headshotNotFound();
  const generation = await getGeneration(caller.sub, headshot.generationId);
  if (!generation) throw headshotNotFound();
  try {
    await assertReferencesStored(generation.referenceKeys);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw new HttpError(
      409,
      'PHOTOS_EXPIRED',
      'The photos this headshot was made from are no longer stored (uploads are kept for 7 days). Upload them again in the generator to create new headshots.',
    );
  }
  return startGeneration(caller, {
    style: headshot.style,
    background: headshot.background,
    referenceKeys: generation.referenceKeys,
    slots: REGENERATE_SLOTS,
    regeneratedFrom: headshot.id,
  });
});
