import { TeamNotFoundError } from '../domain/team-errors';
import type { HttpEvent } from './handler';

/**
 * The path parameters of the team routes (docs/teams.md "Routes"). A missing or oversized team id is answered as an
 * unknown team (404 `TEAM_NOT_FOUND`), never as a validation error, so nothing about ids is revealed.
 */

/** A path parameter, URL-decoded; '' when absent or longer than 320 characters (an address at most 254). */
export function pathParam(event: HttpEvent, name: string): string {
  let value: string;
  try {
    value = decodeURIComponent(event.pathParameters?.[name] ?? '');
  } catch {
    return '';
  }
  return value.length > 320 ? '' : value;
}

/**
 * The `{teamId}` of the path.
 *
 * @throws {TeamNotFoundError} when it is missing or not an id
 */
export function teamIdOf(event: HttpEvent): string {
  const teamId = pathParam(event, 'teamId');
  if (!/^[0-9A-Za-z]{1,64}$/.test(teamId)) throw new TeamNotFoundError();
  return teamId;
}
