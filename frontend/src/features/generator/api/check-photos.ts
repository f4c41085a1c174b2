import * as z from 'zod';
import { apiCall } from '../../../lib/api-client';
import { track } from '../../../lib/analytics';

/**
 * Step 1's photo checks: `POST /api/photo-checks` for the stored photos.
 * The server caches each photo's analysis by object, so asking again for the whole set as photos arrive only
 * analyses the new ones; the set's identity check (a different person) is redone each time.
 */

export const photoCheckSchema = z.object({
  key: z.string(),
  verdict: z.enum(['good', 'warning', 'rejected']),
  score: z.number().int().min(0).max(100),
  reasons: z.array(z.object({ code: z.string(), message: z.string() })),
});

/** One photo's check: `rejected` photos are not used for the headshots. */
export type PhotoCheck = z.infer<typeof photoCheckSchema>;

const photoChecksResponseSchema = z.object({
  checks: z.array(photoCheckSchema),
  quality: z.number().int().min(0).max(100),
});

/** The checks of a set of photos and the set's quality (0-100). */
export type PhotoChecks = z.infer<typeof photoChecksResponseSchema>;

/** Checks the photos stored under `keys` (1-10, in the wizard's order). */
export async function fetchPhotoChecks(keys: readonly string[], signal?: AbortSignal): Promise<PhotoChecks> {
  const checks = await apiCall('/photo-checks', photoChecksResponseSchema, {
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
