import { LOOK_KEEPING_EDITS } from '../../../functions/domain/team-look';
import { EDIT_KINDS, type EditKind } from '../../../functions/domain/edits';
import type { Team } from '../../../functions/contracts/teams';
import { useTeam } from './api/get-teams';

/*
 * What the viewer offers on a team headshot (one whose generation a team paid for: the API's `teamId`; docs/teams.md
 * "The screens"). The server decides and refuses the rest; this only keeps the SPA from offering what it refuses.
 */

/**
 * The edit kinds the viewer offers: on a headshot the team pays to edit (`teamId`; a former member's is theirs, so
 * pass undefined) only those that keep the team's look (domain/team-look.ts).
 */
export function editKindsFor(teamId: string | undefined): readonly EditKind[] {
  if (teamId === undefined) return EDIT_KINDS;
  return EDIT_KINDS.filter((kind) => (LOOK_KEEPING_EDITS as readonly string[]).includes(kind));
}

/** 'Regenerate (1 team edit)': a team headshot's regeneration, paid from the member's team edits (product-spec §2). */
export const TEAM_REGENERATE_LABEL = 'Regenerate (1 team edit)';

/** The edit sheet's words on a team headshot while the team pays (product-spec §2 "Edit a headshot"). */
export const TEAM_EDIT_TEXT = {
  costNote:
    'Each edit uses 1 of your team edits and makes a new version; the original is kept. If the result does not look like you, it is not delivered and the team edit is given back automatically.',
  confirm: 'Edit (1 team edit)',
} as const;

/**
 * Who pays a team headshot's regeneration or edit, as the server decides it (use-cases/team-payer.ts `oneSlotPayer`):
 * the team while the caller is a member (`team`: its answer, the caller's seat in `me`), else — a personal headshot,
 * or the team answering 404 to a former member — the customer (`null`). `undefined` while the team is being read.
 */
export function useTeamPayer(teamId: string | undefined): Team | null | undefined {
  const team = useTeam(teamId ?? null);
  if (teamId === undefined || team.isError) return null;
  return team.data;
}

/** Why a team-paid regeneration or edit cannot start: the member's team edits used (product-spec §8), else null. */
export function teamEditUnavailable(team: Team): string | null {
  const { editsUsed, edits } = team.me.allowance;
  return editsUsed < edits ? null : `You have used all ${edits} of your team edits.`;
}
