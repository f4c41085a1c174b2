import { AlertCircle, Lock, Users } from 'lucide-react';
import type { Team } from '../../../../../functions/contracts/teams';
import { TeamShareList } from '../../../components/TeamShareList';
import { ButtonLink } from '../../../components/ui/Button';
import { LogoGlyph } from '../../../components/ui/BrandMark';
import { Spinner } from '../../../components/ui/Spinner';
import { paths, teamHref } from '../../../config/paths';
import { useTeamShares } from '../../../hooks/use-team-shares';
import type { ApiError } from '../../../lib/api-client';
import type { Headshot } from '../../../lib/api/get-generation';
import { captionOf } from '../../../lib/headshot-caption';
import type { useTeam } from '../../../lib/api/get-teams';
import type { TeamWizard } from '../hooks/use-team-wizard';
import { TEAM_WIZARD_TEXT } from '../utils/team-look';

/** The API's refusals of a team generation: each shows its own sentence (docs/teams.md "Errors"). */
export const TEAM_ERRORS: ReadonlySet<string> = new Set([
  'TEAM_NO_SEATS',
  'TEAM_ALLOWANCE_USED',
  'LOOK_LOCKED',
  'TEAM_NOT_FOUND',
  'TEAM_FORBIDDEN',
]);

/** 'Set by your team' under a step's heading when the team's look offers one choice there, else nothing. */
export function lockedNote(choices: number) {
  if (choices !== 1) return undefined;
  return (
    <p className="mt-3 flex items-center justify-center gap-1.5 text-sm font-semibold text-brand-700 sm:justify-start">
      <Lock aria-hidden="true" className="size-4" />
      {TEAM_WIZARD_TEXT.locked}
    </p>
  );
}

/** Step 2's props of a team generation: the look's styles and outfits, 'Set by your team' on a fixed one. */
export function teamStyleProps(wizard: TeamWizard) {
  return {
    styles: wizard.styles,
    outfits: wizard.outfits,
    styleNote: lockedNote(wizard.styles.length),
    outfitNote: wizard.outfits.length === 1 ? TEAM_WIZARD_TEXT.locked : undefined,
  };
}

/** Step 3's props of a team generation: the look's backgrounds, and the team's allowance instead of credits. */
export function teamBackgroundProps(wizard: TeamWizard) {
  return {
    options: wizard.backgrounds,
    note: lockedNote(wizard.backgrounds.length),
    team: { name: wizard.team.name, allowance: wizard.team.me.allowance },
  };
}

/** The wizard of a team generation while its team loads, or when the API refuses it (its sentence). */
export function TeamGate({ query }: { query: ReturnType<typeof useTeam> }) {
  const error: ApiError | null = query.error;
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-5 bg-slate-50 px-4 text-center">
      <LogoGlyph className="size-12" />
      {error ? (
        <>
          <p role="alert" className="flex max-w-md items-start gap-2 text-base font-medium text-slate-800">
            <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
            {error.message}
          </p>
          <ButtonLink to={paths.dashboard.href} variant="secondary">
            Go to Dashboard
          </ButtonLink>
        </>
      ) : (
        <Spinner className="text-brand-600" label="Loading your team…" />
      )}
    </div>
  );
}

/**
 * Under the results of a team generation (issue 37 §5): 'Share with {team}', each headshot shared or not by the
 * member's own choice (at least one, so the team gets a headshot), and the way back to the team's page.
 */
export function TeamResults({ team, headshots }: { team: Team; headshots: readonly Headshot[] }) {
  const shares = useTeamShares(team.teamId);
  const items = headshots.map((h, i) => ({
    id: h.id,
    thumbnailUrl: h.thumbnailUrl,
    label: `Headshot ${i + 1}: ${captionOf(h.style)}, ${captionOf(h.background)}`,
  }));
  return (
    <section
      aria-labelledby="team-share-title"
      className="mt-10 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="team-share"
    >
      <h2 id="team-share-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Users aria-hidden="true" className="size-5 text-brand-600" />
        {TEAM_WIZARD_TEXT.shareTitle(team.name)}
      </h2>
      <div className="mt-2">
        <TeamShareList
          teamName={team.name}
          headshots={items}
          sharedIds={shares.sharedIds}
          busyId={shares.busyId}
          onShare={shares.share}
          onUnshare={shares.unshare}
        />
      </div>
      <ButtonLink to={teamHref(team.teamId)} variant="secondary" className="mt-5">
        {TEAM_WIZARD_TEXT.backToTeam(team.name)}
      </ButtonLink>
    </section>
  );
}
