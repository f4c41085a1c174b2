import { apiCall } from '../api-client';
import { headshotSchema, type Headshot } from './contracts';

/**
 * `PATCH /api/headshots/{id}`: marks a headshot as favorite or not; answers the updated headshot.
 * @throws {ApiError} 404 when it is gone; `INVALID_RESPONSE` for an unexpected answer
 */
export function updateHeadshot(id: string, change: { isFavorite: boolean }): Promise<Headshot> {
  return apiCall(`/headshots/${encodeURIComponent(id)}`, headshotSchema, { method: 'PATCH', body: change });
}
