import { Building2, ChevronRight, Plus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ButtonLink } from '../../../components/ui/Button';
import { paths, teamHref } from '../../../config/paths';
import { useTeams } from '../../../lib/api/get-teams';

/** The dashboard's 'Teams' texts (docs/product-spec.md §2 "Teams"), verbatim. */
export const TEAMS_SECTION_TEXT = {
  heading: 'Teams',
  create: 'Create a team',
  empty: 'Buying headshots for your company? Create a team, buy a seat for each person and invite them.',
  failed: "We couldn't load your teams.",
  retry: 'Try again',
  roles: { owner: 'Owner', admin: 'Admin', member: 'Member' },
} as const;

/**
 * 'Teams' on the dashboard (issue 37): the caller's teams, each linking to its page with the caller's role, and
 * 'Create a team'; with none, why one would.
 */
export function TeamsSection() {
  const teams = useTeams();
  const items = teams.data?.items ?? [];
  return (
    <section aria-labelledby="teams-heading" className="mt-12" data-testid="teams-section">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="teams-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Building2 aria-hidden="true" className="size-5 text-slate-500" />
          {TEAMS_SECTION_TEXT.heading}
        </h2>
        <ButtonLink to={paths.newTeam.href} variant="secondary" size="sm">
          <Plus aria-hidden="true" className="size-4" />
          {TEAMS_SECTION_TEXT.create}
        </ButtonLink>
      </div>
      {teams.isError ? (
        <p role="alert" className="mt-3 text-sm text-slate-600">
          {TEAMS_SECTION_TEXT.failed}{' '}
          <button
            type="button"
            className="font-semibold text-brand-700 underline"
            onClick={() => void teams.refetch()}
          >
            {TEAMS_SECTION_TEXT.retry}
          </button>
        </p>
      ) : teams.isPending ? null : items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{TEAMS_SECTION_TEXT.empty}</p>
      ) : (
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((team) => (
            <li key={team.teamId}>
              <Link
                to={teamHref(team.teamId)}
                className="flex min-h-16 items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 transition hover:ring-slate-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                <span className="min-w-0">
                  <span className="block truncate font-semibold text-slate-900">{team.name}</span>
                  <span className="block text-sm text-slate-600">{TEAMS_SECTION_TEXT.roles[team.role]}</span>
                </span>
                <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
