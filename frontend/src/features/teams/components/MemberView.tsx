import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Images, LogOut, Palette, Sparkles } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import type { Team } from '../../../../../functions/contracts/teams';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { TeamShareList, type ShareableHeadshot } from '../../../components/TeamShareList';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { paths, teamGeneratorHref } from '../../../config/paths';
import { useTeamShares } from '../../../hooks/use-team-shares';
import type { TeamHeadshot } from '../../../lib/api/team-shares';
import type { ApiError } from '../../../lib/api-client';
import { captionOf } from '../../../lib/headshot-caption';
import { queryKeys } from '../../../lib/query-keys';
import { useMyTeamHeadshots } from '../api/my-team-headshots';
import { removeMember } from '../api/team-writes';
import { BACKGROUND_LABELS, OUTFIT_LABELS, STYLE_LABELS } from '../utils/look';
import { LOOK_TEXT, MEMBER_VIEW_TEXT, MEMBERS_TEXT } from '../utils/text';
import { Panel } from './TeamLayout';

/**
 * The caller's own seat in a team (docs/product-spec.md §2 "Teams", a member's page; also the top of an admin's):
 * who pays, the allowance used, 'Make your team headshots' while the generation is unused.
 */
export function MySeat({ team }: { team: Team }) {
  const a = team.me.allowance;
  const unused = a.generationsUsed < a.generations;
  return (
    <section
      aria-label={MEMBER_VIEW_TEXT.seat}
      className="mt-6 flex flex-col gap-4 rounded-3xl bg-brand-50 p-5 ring-1 ring-brand-100 sm:flex-row sm:items-center sm:justify-between sm:p-6"
    >
      <div>
        <p className="text-sm text-brand-900">{MEMBER_VIEW_TEXT.pays}</p>
        <p data-testid="my-allowance" className="mt-1 text-base font-semibold text-slate-900">
          {MEMBERS_TEXT.allowance(a.generationsUsed, a.generations, a.editsUsed, a.edits)}
        </p>
      </div>
      {unused && (
        <ButtonLink to={teamGeneratorHref(team.teamId)} size="lg" className="shrink-0">
          <Sparkles aria-hidden="true" className="size-5" />
          {MEMBER_VIEW_TEXT.make}
        </ButtonLink>
      )}
    </section>
  );
}

/** The team's look as a member reads it: what their generation uses. */
export function LookSummary({ team }: { team: Team }) {
  const backgrounds = team.look.backgrounds.map((b) =>
    b.type === 'preset' ? BACKGROUND_LABELS[b.background] : `${LOOK_TEXT.customColour} ${b.colour}`,
  );
  const rows: [string, string[]][] = [
    [LOOK_TEXT.styles, team.look.styles.map((s) => STYLE_LABELS[s])],
    [LOOK_TEXT.backgrounds, backgrounds],
    [LOOK_TEXT.outfits, team.look.outfits.map((o) => OUTFIT_LABELS[o])],
  ];
  return (
    <Panel id="team-look-summary" icon={Palette} title={LOOK_TEXT.heading}>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
        {rows.map(([term, values]) => (
          <div key={term}>
            <dt className="font-semibold text-slate-900">{term}</dt>
            <dd className="mt-0.5 text-slate-600">{values.join(', ')}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

/**
 * The member's own team headshots to share or unshare: those of their gallery the team paid for (the API's `teamId`,
 * on any device), then any shared one not among them (a team headshot saved before the server recorded its team).
 */
function useTeamHeadshotList(
  team: Team,
  made: boolean,
  shared: readonly TeamHeadshot[] | undefined,
): ShareableHeadshot[] {
  const mine = useMyTeamHeadshots(made ? team.teamId : null).data;
  return useMemo(() => {
    // Oldest first, as the wizard's grid numbers them.
    const items: ShareableHeadshot[] = [...(mine ?? [])].reverse().map((h, i) => ({
      id: h.id,
      thumbnailUrl: h.thumbnailUrl,
      label: `Headshot ${i + 1}: ${captionOf(h.style)}, ${captionOf(h.background)}`,
    }));
    const listed = new Set(items.map((item) => item.id));
    // An owner's or admin's gallery holds everyone's shares: only the caller's own are theirs to unshare.
    for (const item of shared ?? []) {
      if (listed.has(item.headshotId) || item.member.sub !== team.me.sub) continue;
      items.push({
        id: item.headshotId,
        thumbnailUrl: item.thumbnailUrl,
        label: `${captionOf(item.style)}, ${captionOf(item.background)}`,
      });
    }
    return items;
  }, [mine, shared, team.me.sub]);
}

/**
 * A team's page for a plain member (docs/product-spec.md §2 "Teams"): their seat, the team's look, their headshots
 * shared with the team ('Stop sharing'), and 'Leave team' after a question.
 */
export function MemberView({ team }: { team: Team }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const leave = useMutation({
    mutationFn: () => removeMember(team.teamId, team.me.sub),
    onSuccess: async () => {
      toast.success(MEMBER_VIEW_TEXT.left(team.name));
      await navigate(paths.dashboard.href, { replace: true });
      queryClient.removeQueries({ queryKey: queryKeys.teams.all });
    },
    onError: (error: ApiError) => {
      setLeaving(false);
      toast.error(error.message);
    },
  });

  return (
    <>
      <MySeat team={team} />
      <LookSummary team={team} />
      <MyShares team={team} />
      <div className="mt-10">
        <Button variant="secondary" onClick={() => setLeaving(true)} className="text-red-700">
          <LogOut aria-hidden="true" className="size-4" />
          {MEMBER_VIEW_TEXT.leave}
        </Button>
      </div>
      {leaving && (
        <ConfirmDialog
          title={MEMBER_VIEW_TEXT.leaveQuestion(team.name)}
          confirmLabel={MEMBER_VIEW_TEXT.leaveConfirm}
          busy={leave.isPending}
          onCancel={() => setLeaving(false)}
          onConfirm={() => leave.mutate()}
        >
          {MEMBER_VIEW_TEXT.leaveBody}
        </ConfirmDialog>
      )}
    </>
  );
}

/**
 * 'Your team headshots': the caller's own team headshots with 'Share with {team}' / 'Shared' and 'Stop sharing' —
 * for a member, and for an owner or admin who made theirs. Nothing while there is none to show.
 */
export function MyShares({ team }: { team: Team }) {
  // Nothing to list before the caller's team generation: no gallery read for an owner who has made none.
  const made = team.me.allowance.generationsUsed > 0 || team.me.sharedCount > 0;
  const shares = useTeamShares(made ? team.teamId : null);
  const headshots = useTeamHeadshotList(team, made, shares.shared);
  if (headshots.length === 0) return null;
  return (
    <Panel id="team-my-shares" icon={Images} title={MEMBER_VIEW_TEXT.yours}>
      <div className="mt-3">
        <TeamShareList
          teamName={team.name}
          headshots={headshots}
          sharedIds={shares.sharedIds}
          busyId={shares.busyId}
          onShare={shares.share}
          onUnshare={shares.unshare}
        />
      </div>
    </Panel>
  );
}
