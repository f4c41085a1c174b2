import type { Teams } from '../contracts/teams';
import { listTeams } from '../use-cases/read-teams';
import { callerOf, httpHandler, json } from './handler';

/** `GET /api/teams` (jwt) → 200 `{ items: [{ teamId, name, role, joinedAt }] }`: the caller's teams (docs/teams.md). */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  return json<Teams>(200, await listTeams(sub));
});
