import { useMutation } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Invitation, Team, TeamMember } from '../../../../../functions/contracts/teams';
import type { TeamRole } from '../../../../../functions/domain/teams';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Button } from '../../../components/ui/Button';
import type { ApiError } from '../../../lib/api-client';
import { cx } from '../../../lib/cx';
import { resendInvitation } from '../api/invites';
import { removeMember, setMemberRole, useRefreshTeam } from '../api/team-writes';
import { memberActions, memberRows } from '../utils/team-form';
import { MEMBERS_TEXT } from '../utils/text';
import { Panel } from './TeamLayout';

type AdminTeam = Team & { admin: NonNullable<Team['admin']> };

/** A question asked before a change that cannot be taken back from this page. */
type Pending = { kind: 'remove'; member: TeamMember } | { kind: 'owner'; member: TeamMember };

const STATE_TONE = {
  invited: 'bg-slate-100 text-slate-700',
  joined: 'bg-sky-50 text-sky-800',
  generating: 'bg-amber-50 text-amber-900',
  shared: 'bg-emerald-50 text-emerald-800',
  expired: 'bg-red-50 text-red-800',
} as const;

/**
 * 'Members' of a team's page (docs/product-spec.md §2 "Teams"): one row per member (e-mail, role, state, allowance
 * used) and per unanswered invitation ('Invited' or 'Expired', with 'Resend'); the owner's role changes and the
 * hand-over, and removal, each as the caller's role allows (utils/team-form.ts `memberActions`). Removing and making
 * someone owner ask first.
 */
export function MembersPanel({ team }: { team: AdminTeam }) {
  const refresh = useRefreshTeam(team.teamId);
  const [pending, setPending] = useState<Pending | null>(null);
  const onError = (error: ApiError) => toast.error(error.message);

  const role = useMutation({
    mutationFn: ({ sub, to }: { sub: string; to: TeamRole }) => setMemberRole(team.teamId, sub, to),
    onSuccess: () => refresh().then(() => setPending(null)),
    onError: (error: ApiError) => {
      setPending(null);
      onError(error);
    },
  });
  const remove = useMutation({
    mutationFn: (sub: string) => removeMember(team.teamId, sub),
    onSuccess: () => refresh().then(() => setPending(null)),
    onError: (error: ApiError) => {
      setPending(null);
      onError(error);
    },
  });
  const resend = useMutation({
    mutationFn: (email: string) => resendInvitation(team.teamId, email),
    onSuccess: (invitation) => {
      toast.success(MEMBERS_TEXT.resent(invitation.email));
      return refresh();
    },
    onError,
  });

  return (
    <Panel id="team-members" icon={Users} title={MEMBERS_TEXT.heading}>
      <ul className="mt-4 divide-y divide-slate-200 border-y border-slate-200" data-testid="team-members">
        {memberRows(team.admin).map((row) =>
          row.kind === 'member' ? (
            <MemberRow
              key={row.key}
              member={row.member}
              isMe={row.member.sub === team.me.sub}
              actions={memberActions(row.member, team.me.role, team.me.sub)}
              busy={role.isPending || remove.isPending}
              onRole={(to) =>
                to === 'owner'
                  ? setPending({ kind: 'owner', member: row.member })
                  : role.mutate({ sub: row.member.sub, to })
              }
              onRemove={() => setPending({ kind: 'remove', member: row.member })}
            />
          ) : (
            <InvitationRow
              key={row.key}
              invitation={row.invitation}
              busy={resend.isPending && resend.variables === row.invitation.email}
              onResend={() => resend.mutate(row.invitation.email)}
            />
          ),
        )}
      </ul>
      {pending?.kind === 'remove' && (
        <ConfirmDialog
          title={MEMBERS_TEXT.removeQuestion(pending.member.email, team.name)}
          confirmLabel={MEMBERS_TEXT.remove}
          busy={remove.isPending}
          onCancel={() => setPending(null)}
          onConfirm={() => remove.mutate(pending.member.sub)}
        >
          {MEMBERS_TEXT.removeBody}
        </ConfirmDialog>
      )}
      {pending?.kind === 'owner' && (
        <ConfirmDialog
          title={MEMBERS_TEXT.ownerQuestion(pending.member.email, team.name)}
          confirmLabel={MEMBERS_TEXT.makeOwner}
          busy={role.isPending}
          onCancel={() => setPending(null)}
          onConfirm={() => role.mutate({ sub: pending.member.sub, to: 'owner' })}
        >
          {MEMBERS_TEXT.ownerBody}
        </ConfirmDialog>
      )}
    </Panel>
  );
}

function StateBadge({ state, label }: { state: keyof typeof STATE_TONE; label: string }) {
  return (
    <span className={cx('rounded-full px-2 py-0.5 text-xs font-semibold', STATE_TONE[state])}>{label}</span>
  );
}

function MemberRow({
  member,
  isMe,
  actions,
  busy,
  onRole,
  onRemove,
}: {
  member: TeamMember;
  isMe: boolean;
  actions: ReturnType<typeof memberActions>;
  busy: boolean;
  onRole: (role: TeamRole) => void;
  onRemove: () => void;
}) {
  const a = member.allowance;
  const any = actions.makeAdmin || actions.makeMember || actions.makeOwner || actions.remove;
  return (
    <li data-testid="team-member" data-email={member.email} className="py-3.5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="min-w-0 font-medium break-all text-slate-900">{member.email}</span>
        {isMe && <span className="text-xs text-slate-500">({MEMBERS_TEXT.you})</span>}
        <span className="text-sm text-slate-600">{MEMBERS_TEXT.roles[member.role]}</span>
        <StateBadge state={member.state} label={MEMBERS_TEXT.states[member.state]} />
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {MEMBERS_TEXT.allowance(a.generationsUsed, a.generations, a.editsUsed, a.edits)}
      </p>
      {any && (
        <div
          role="group"
          aria-label={MEMBERS_TEXT.actions(member.email)}
          className="mt-2 flex flex-wrap gap-2"
        >
          {actions.makeAdmin && (
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => onRole('admin')}>
              {MEMBERS_TEXT.makeAdmin}
            </Button>
          )}
          {actions.makeMember && (
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => onRole('member')}>
              {MEMBERS_TEXT.makeMember}
            </Button>
          )}
          {actions.makeOwner && (
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => onRole('owner')}>
              {MEMBERS_TEXT.makeOwner}
            </Button>
          )}
          {actions.remove && (
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              onClick={onRemove}
              className="text-red-700 ring-red-200 hover:bg-red-50"
            >
              {MEMBERS_TEXT.remove}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

function InvitationRow({
  invitation,
  busy,
  onResend,
}: {
  invitation: Invitation;
  busy: boolean;
  onResend: () => void;
}) {
  const expired = invitation.state === 'expired';
  return (
    <li data-testid="team-invitation" data-email={invitation.email} className="py-3.5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="min-w-0 font-medium break-all text-slate-900">{invitation.email}</span>
        <span className="text-sm text-slate-600">{MEMBERS_TEXT.roles.member}</span>
        <StateBadge
          state={expired ? 'expired' : 'invited'}
          label={expired ? MEMBERS_TEXT.expired : MEMBERS_TEXT.states.invited}
        />
      </div>
      <Button variant="secondary" size="sm" className="mt-2" loading={busy} onClick={onResend}>
        {MEMBERS_TEXT.resend}
        <span className="sr-only"> {invitation.email}</span>
      </Button>
    </li>
  );
}
