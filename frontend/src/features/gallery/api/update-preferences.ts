import * as z from 'zod';
import { apiFetch } from '../../../lib/api-client';

/** `PATCH /api/me` answer: the stored preference. */
export const preferencesSchema = z.object({ emailWhenReady: z.boolean() });
export type Preferences = z.infer<typeof preferencesSchema>;

/**
 * Turns the "headshots ready" e-mail on or off (`PATCH /api/me { emailWhenReady }`).
 *
 * @throws {ApiError} when the API refuses (400, 404) or cannot be reached
 */
export async function updateEmailWhenReady(emailWhenReady: boolean): Promise<Preferences> {
  return preferencesSchema.parse(
    await apiFetch<unknown>('/me', { method: 'PATCH', body: { emailWhenReady } }),
  );
}
