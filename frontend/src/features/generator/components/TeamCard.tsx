import { Users } from 'lucide-react';
import type { GenerateControls } from '../utils/wizard-rules';
import { GENERATOR_TEXT } from '../utils/content';
import { TEAM_WIZARD_TEXT } from '../utils/team-look';

/** The team paying for the wizard's generation (issue 37) and the caller's seat in it. */
export interface TeamPayer {
  name: string;
  allowance: { generationsUsed: number; generations: number; editsUsed: number; edits: number };
}

/**
 * Step 3's generate button and notice for a team generation (docs/teams.md "Money"): no credit figure (the team
 * pays); disabled without a background, while starting, with photos of different people, or once the caller's one
 * team generation is used ('You have already made your team headshots.'). The server decides again.
 */
export function teamControls(
  team: TeamPayer,
  {
    hasBackground,
    generating,
    mixedPeople,
  }: { hasBackground: boolean; generating: boolean; mixedPeople: boolean },
): GenerateControls {
  const used = team.allowance.generationsUsed >= team.allowance.generations;
  return {
    label: generating ? GENERATOR_TEXT.generating : TEAM_WIZARD_TEXT.generate,
    disabled: !hasBackground || generating || mixedPeople || used,
    lowCredits: false,
    notice: used ? TEAM_WIZARD_TEXT.used : null,
  };
}

/** The card that stands in for the credits on step 3 of a team generation: who pays and the seat's use. */
export function TeamCard({ team }: { team: TeamPayer }) {
  const a = team.allowance;
  return (
    <div
      data-testid="team-card"
      className="flex items-start gap-4 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <span
        aria-hidden="true"
        className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-600"
      >
        <Users className="size-5" />
      </span>
      <div className="min-w-0">
        <h2 className="text-sm font-semibold break-words text-slate-900">
          {TEAM_WIZARD_TEXT.paidBy(team.name)}
        </h2>
        <p className="mt-0.5 text-base font-bold text-slate-900 tabular-nums">
          {TEAM_WIZARD_TEXT.allowance(a.generationsUsed, a.generations, a.editsUsed, a.edits)}
        </p>
        <p className="mt-1 text-sm text-slate-600">{TEAM_WIZARD_TEXT.pays}</p>
      </div>
    </div>
  );
}
