import { DEFAULT_OUTFIT } from '../domain/outfits';
import { TeamNotFoundError } from '../domain/team-errors';
import { assertInLook, type LookChoice } from '../domain/team-look';
import {
  assertMaySpend,
  payingTeam,
  type AllowanceCounter,
  type GenerationPayer,
} from '../domain/team-seats';
import { teamAccess, type TeamAccessPorts } from './team-access';

/**
 * Who pays for a generation a team member starts (docs/teams.md "Money", "The brand look"): the checks made before
 * anything is spent, so the customer reads the right sentence. The spend's own transaction holds the same conditions
 * (use-cases/generation-payment.ts), so two starts at once cannot both pass.
 */

/**
 * A team-paid start of `counter`'s kind: the caller must be a current member (404 otherwise, as for any team route),
 * the choice — when one is made (a new generation) — within the team's look, and the member's allowance and the team's
 * balance enough.
 *
 * @param choice the style, background (and colour) and outfit asked for; absent (an outfit) is the customer's own
 *   clothing, which the look must hold too
 * @returns the payer to record on the generation: `{ team: teamId }`
 * @throws {TeamNotFoundError} not a current member; {LookLockedError}; {TeamAllowanceUsedError}; {TeamNoSeatsError}
 */
export async function teamPayer(
  teamId: string,
  sub: string,
  counter: AllowanceCounter,
  choice: (Omit<LookChoice, 'outfit'> & { outfit?: LookChoice['outfit'] | undefined }) | undefined,
  ports: TeamAccessPorts,
): Promise<GenerationPayer> {
  const { team, member } = await teamAccess(teamId, sub, 'generate', ports);
  if (choice) assertInLook(team.look, { ...choice, outfit: choice.outfit ?? DEFAULT_OUTFIT });
  assertMaySpend(member, team.balance, counter);
  return { team: teamId };
}

/**
 * Who pays for a one-slot generation (a regeneration or an edit) of a headshot, from the generation that made it: a
 * team-paid headshot's is team-paid again, from the member's edits, while they are a member of that team; a former
 * member's headshot is theirs, so they pay for it themself, as for any of their headshots (`undefined`: the customer).
 *
 * @throws {TeamAllowanceUsedError} the member's team edits are used; {TeamNoSeatsError} the team cannot pay
 */
export async function oneSlotPayer(
  generation: { payer?: GenerationPayer | undefined },
  sub: string,
  ports: TeamAccessPorts,
): Promise<GenerationPayer | undefined> {
  const teamId = payingTeam(generation.payer);
  if (teamId === undefined) return undefined;
  try {
    return await teamPayer(teamId, sub, 'editsUsed', undefined, ports);
  } catch (error) {
    if (error instanceof TeamNotFoundError) return undefined;
    throw error;
  }
}
