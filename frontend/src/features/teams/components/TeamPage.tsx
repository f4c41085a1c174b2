import { AlertCircle } from 'lucide-react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { Team } from '../../../../../functions/contracts/teams';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { paths } from '../../../config/paths';
import { useTeam } from '../../../lib/api/get-teams';
import { MEMBERS_TEXT, TEAMS_TEXT } from '../utils/text';
import { InvitePanel } from './InvitePanel';
import { LookPanel } from './LookPanel';
import { MembersPanel } from './MembersPanel';
import { MemberView, MySeat, MyShares } from './MemberView';
import { SeatsPanel } from './SeatsPanel';
import { SharedGallery } from './SharedGallery';
import { TeamFrame } from './TeamLayout';

type AdminTeam = Team & { admin: NonNullable<Team['admin']> };

const isAdminView = (team: Team): team is AdminTeam => team.admin !== null;

/**
 * `/teams/:teamId` (docs/product-spec.md §2 "Teams"): for the owner and admins the team's dashboard — their own seat,
 * 'Seats', 'Members', 'Invite', 'Brand look' and 'Shared headshots'; for a member their own seat, the look and their
 * shares ({@link MemberView}). Anyone else reads the API's 'This team doesn't exist, or you are not one of its
 * members.' Render it inside `RequireAuth`.
 */
export function TeamPage() {
  const { teamId = '' } = useParams();
  const team = useTeam(teamId);
  // Stripe Checkout's cancel URL of a seat purchase: `?checkout=cancelled`.
  const [search] = useSearchParams();
  const cancelled = search.get('checkout') === 'cancelled';

  if (team.isPending) {
    return (
      <TeamFrame title={TEAMS_TEXT.heading}>
        <div className="flex justify-center py-20">
          <Spinner className="text-brand-600" label="Loading the team…" />
        </div>
      </TeamFrame>
    );
  }
  if (team.isError) {
    const gone = team.error.status === 404;
    return (
      <TeamFrame title={TEAMS_TEXT.heading}>
        <div
          role="alert"
          className="mx-auto max-w-lg rounded-3xl bg-white p-8 text-center ring-1 ring-slate-200"
        >
          <AlertCircle aria-hidden="true" className="mx-auto size-8 text-slate-400" />
          <h1 className="mt-3 text-lg font-semibold text-slate-900">
            {gone ? team.error.message : TEAMS_TEXT.loadFailed}
          </h1>
          <div className="mt-6 flex justify-center gap-3">
            {!gone && (
              <Button variant="secondary" onClick={() => void team.refetch()}>
                {TEAMS_TEXT.retry}
              </Button>
            )}
            <ButtonLink to={paths.dashboard.href}>{TEAMS_TEXT.back}</ButtonLink>
          </div>
        </div>
      </TeamFrame>
    );
  }

  const data = team.data;
  return (
    <TeamFrame title={data.name}>
      <h1 className="font-display text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
        {data.name}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{MEMBERS_TEXT.roles[data.me.role]}</p>
      {isAdminView(data) ? (
        <>
          <MySeat team={data} />
          <MyShares team={data} />
          <SeatsPanel team={data} cancelled={cancelled} />
          <MembersPanel team={data} />
          <InvitePanel team={data} />
          <LookPanel team={data} />
          <SharedGallery team={data} />
        </>
      ) : (
        <MemberView team={data} />
      )}
    </TeamFrame>
  );
}
