import * as z from 'zod';
import { apiFetch, apiUrl } from '../api-client';
import type { QueuedEvent } from './client';

/** `POST /api/analytics/events` answer: how many events the server kept. */
export const analyticsAcceptedSchema = z.object({ accepted: z.number().int().nonnegative() });

/**
 * Sends a batch through the API client, which adds the bearer token when signed in (the server then attaches the
 * user's sub). `keepalive` lets the request finish if the page navigates away meanwhile.
 *
 * @throws {ApiError} like every API call; the analytics client swallows it
 */
export async function postAnalyticsEvents(events: QueuedEvent[]): Promise<number> {
  const answer = await apiFetch<unknown>('analytics/events', {
    method: 'POST',
    body: { events },
    keepalive: true,
  });
  return analyticsAcceptedSchema.parse(answer).accepted;
}

/**
 * Sends a batch with `navigator.sendBeacon` as the page is hidden (the browser delivers it after the page is gone).
 * A beacon cannot carry an Authorization header, so these events arrive without a sub; their anonymous id still
 * ties them to the person.
 */
export function beaconAnalyticsEvents(events: QueuedEvent[]): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return false;
  const blob = new Blob([JSON.stringify({ events })], { type: 'application/json' });
  return navigator.sendBeacon(apiUrl('analytics/events'), blob);
}
