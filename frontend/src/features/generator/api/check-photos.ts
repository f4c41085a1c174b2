import type * as z from 'zod';
import { apiCall } from '../../../lib/api-client';
import { photoChecksSchema } from '../../../lib/api/contracts';
import { track } from '../../../lib/analytics';

/**
 * Step 1's photo checks: `POST /api/photo-checks` for the stored photos.
 * The server caches each photo's analysis by object, so asking again for the whole set as photos arrive only
 * analyses the new ones; the set's identity check (a different person) is redone each time.
 */

/** One photo's check: `rejected` photos are not used for the headshots. */
export type PhotoCheck = PhotoChecks['checks'][number];

/** The checks of a set of photos and the set's quality (0-100). */
export type PhotoChecks = z.infer<typeof photoChecksSchema>;

/** Checks the photos stored under `keys` (1-10, in the wizard's order). */
export async function fetchPhotoChecks(keys: readonly string[], signal?: AbortSignal): Promise<PhotoChecks> {
  const checks = await apiCall('/photo-checks', photoChecksSchema, {
    method: 'POST',
    body: { keys },
    signal,
  });
  track('photo_check', {
    photos: checks.checks.length,
    quality: checks.quality,
    rejected: checks.checks.filter((check) => check.verdict === 'rejected').length,
    warnings: checks.checks.filter((check) => check.verdict === 'warning').length,
  });
  return checks;
}
