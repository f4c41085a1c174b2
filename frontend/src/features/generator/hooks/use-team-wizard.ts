import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Team } from '../../../../../functions/contracts/teams';
import { useTeam } from '../../../lib/api/get-teams';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import type { BackgroundId, OutfitId, StyleId } from '../utils/content';
import {
  outfitWithinLook,
  teamBackgroundOptions,
  teamOutfitOptions,
  teamStyleOptions,
  withinLook,
  type TeamBackgroundKey,
} from '../utils/team-look';

/** The wizard's choices, as the page holds them. */
export interface WizardChoices {
  style: StyleId | null;
  background: BackgroundId | null;
  /** A custom colour chosen from a team's look, else null. */
  colour: string | null;
  outfit: OutfitId;
}

/** What {@link useTeamWizard} returns for a team generation (null for the customer's own). */
export interface TeamWizard {
  team: Team;
  styles: ReturnType<typeof teamStyleOptions>;
  outfits: ReturnType<typeof teamOutfitOptions>;
  backgrounds: ReturnType<typeof teamBackgroundOptions>;
  /** The choices held within the look: a fixed list's only entry, a choice outside it dropped. */
  within(choices: WizardChoices): {
    style: StyleId | null;
    outfit: OutfitId;
    background: TeamBackgroundKey | null;
  };
  /** After a team generation started: the team's page and the caller's allowance read again, the generation kept. */
  started(generationId: string): void;
}

/**
 * The team a wizard URL names (`?team=<teamId>`, issue 37), read with `GET /api/teams/{teamId}`: its look's options
 * and the choices held within them. `query` is the team's read (pending, refused with the API's sentence, or loaded).
 */
export function useTeamWizard(teamId: string | null): {
  query: ReturnType<typeof useTeam>;
  wizard: TeamWizard | null;
} {
  const query = useTeam(teamId);
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const team = query.data;
  const sub = user?.sub ?? null;
  const started = useCallback(() => {
    if (!teamId) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.teams.one(sub, teamId) });
  }, [queryClient, sub, teamId]);
  const wizard = useMemo((): TeamWizard | null => {
    if (!teamId || !team) return null;
    const backgrounds = teamBackgroundOptions(team.look);
    return {
      team,
      styles: teamStyleOptions(team.look),
      outfits: teamOutfitOptions(team.look),
      backgrounds,
      within: ({ style, background, colour, outfit }) => ({
        style: withinLook(style, team.look.styles),
        outfit: outfitWithinLook(outfit, team.look.outfits),
        background: withinLook<TeamBackgroundKey>(
          colour ? (colour as `#${string}`) : background,
          backgrounds.map((b) => b.id),
        ),
      }),
      started,
    };
  }, [team, teamId, started]);
  return { query, wizard };
}
