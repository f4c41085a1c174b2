import { useMutation } from '@tanstack/react-query';
import { Check, Copy, Link2, UserPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  createInviteLinkBody,
  type CreatedInviteLink,
  type InviteLinkView,
  type Team,
} from '../../../../../functions/contracts/teams';
import { INVITE_LINK_CAP, INVITE_LINK_DAYS } from '../../../../../functions/domain/team-invites';
import { Button } from '../../../components/ui/Button';
import type { ApiError } from '../../../lib/api-client';
import { cx } from '../../../lib/cx';
import { createInviteLink, revokeInviteLink, useInviteLinks } from '../api/invites';
import { useRefreshTeam } from '../api/team-writes';
import { formatDate } from '../utils/team-form';
import { INVITE_TEXT } from '../utils/text';
import { EmailInvites } from './EmailInvites';
import { FIELD_CLASSES, Panel, Problem } from './TeamLayout';
import { FieldLabel } from '../../../components/ui/FieldLabel';

type AdminTeam = Team & { admin: NonNullable<Team['admin']> };

/** The link lifetimes offered, in days (1-30 on the server). */
const DAY_CHOICES = [1, 3, 7, 14, 30] as const;

/**
 * 'Invite' of a team's page (docs/product-spec.md §2 "Teams"): a link that expires, has a cap and can be limited to
 * the team's domains, shown once with 'Copy link'; the team's links with their use and state and 'Turn off'; and
 * e-mail invitations ({@link EmailInvites}).
 */
export function InvitePanel({ team }: { team: AdminTeam }) {
  const refresh = useRefreshTeam(team.teamId);
  const links = useInviteLinks(team.teamId, true);
  const [created, setCreated] = useState<CreatedInviteLink | null>(null);
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createInviteLink>[1]) => createInviteLink(team.teamId, body),
    onSuccess: (link) => {
      setCreated(link);
      void refresh();
    },
    onError: (error: ApiError) => toast.error(error.message),
  });
  const revoke = useMutation({
    mutationFn: (linkId: string) => revokeInviteLink(team.teamId, linkId),
    onSuccess: () => refresh(),
    onError: (error: ApiError) => toast.error(error.message),
  });

  return (
    <Panel id="team-invite" icon={UserPlus} title={INVITE_TEXT.heading}>
      <h3 className="mt-4 flex items-center gap-2 text-base font-semibold text-slate-900">
        <Link2 aria-hidden="true" className="size-4 text-slate-500" />
        {INVITE_TEXT.link}
      </h3>
      <LinkForm
        domains={team.admin.allowedDomains}
        busy={create.isPending}
        onCreate={(body) => create.mutate(body)}
      />
      {created && <CreatedLink url={created.url} />}
      {links.isError ? (
        <Problem message={links.error.message} onRetry={() => void links.refetch()} />
      ) : (
        links.data &&
        links.data.items.length > 0 && (
          <ul className="mt-4 divide-y divide-slate-200 border-y border-slate-200" data-testid="invite-links">
            {links.data.items.map((link) => (
              <LinkRow
                key={link.linkId}
                link={link}
                busy={revoke.isPending && revoke.variables === link.linkId}
                onRevoke={() => revoke.mutate(link.linkId)}
              />
            ))}
          </ul>
        )
      )}
      <EmailInvites teamId={team.teamId} onSent={refresh} />
    </Panel>
  );
}

function LinkForm({
  domains,
  busy,
  onCreate,
}: {
  domains: string[];
  busy: boolean;
  onCreate: (body: { expiresInDays: number; cap: number; domainsOnly: boolean }) => void;
}) {
  const id = useId();
  const [days, setDays] = useState<number>(INVITE_LINK_DAYS.default);
  const [cap, setCap] = useState(String(INVITE_LINK_CAP.default));
  const [domainsOnly, setDomainsOnly] = useState(domains.length > 0);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createInviteLinkBody.safeParse({
      expiresInDays: days,
      cap: Number(cap),
      domainsOnly: domains.length > 0 && domainsOnly,
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? INVITE_TEXT.cap);
      return;
    }
    setProblem(null);
    onCreate(parsed.data);
  };
  return (
    <form onSubmit={submit} className="mt-3 grid gap-4 sm:grid-cols-2">
      <div>
        <FieldLabel htmlFor={`${id}-days`}>{INVITE_TEXT.expiresAfter}</FieldLabel>
        <select
          id={`${id}-days`}
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          className={cx(FIELD_CLASSES, 'mt-1.5')}
        >
          {DAY_CHOICES.map((n) => (
            <option key={n} value={n}>
              {INVITE_TEXT.days(n)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <FieldLabel htmlFor={`${id}-cap`}>{INVITE_TEXT.cap}</FieldLabel>
        <input
          id={`${id}-cap`}
          type="number"
          inputMode="numeric"
          min={INVITE_LINK_CAP.min}
          max={INVITE_LINK_CAP.max}
          value={cap}
          onChange={(event) => setCap(event.target.value)}
          className={cx(FIELD_CLASSES, 'mt-1.5')}
        />
      </div>
      {domains.length > 0 && (
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-900 sm:col-span-2">
          <input
            type="checkbox"
            checked={domainsOnly}
            onChange={(event) => setDomainsOnly(event.target.checked)}
            className="size-5 accent-brand-600"
          />
          {INVITE_TEXT.domainsOnly(domains)}
        </label>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2">
          {problem}
        </p>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" loading={busy}>
          {INVITE_TEXT.create}
        </Button>
      </div>
    </form>
  );
}

/** The new link, shown this once, with 'Copy link' ('Copied' once copied). */
function CreatedLink({ url }: { url: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      toast.info(INVITE_TEXT.copyFailed);
    }
  };
  return (
    <div className="mt-4 rounded-2xl bg-brand-50 p-4 ring-1 ring-brand-100" data-testid="created-link">
      <label htmlFor={id} className="text-sm font-semibold text-brand-900">
        {INVITE_TEXT.shownOnce}
      </label>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          value={url}
          onFocus={(event) => event.target.select()}
          className={cx(FIELD_CLASSES, 'font-mono text-sm sm:text-xs')}
        />
        <Button onClick={() => void copy()} className="shrink-0">
          {copied ? (
            <Check aria-hidden="true" className="size-4" />
          ) : (
            <Copy aria-hidden="true" className="size-4" />
          )}
          <span aria-live="polite">{copied ? INVITE_TEXT.copied : INVITE_TEXT.copy}</span>
        </Button>
      </div>
    </div>
  );
}

function LinkRow({ link, busy, onRevoke }: { link: InviteLinkView; busy: boolean; onRevoke: () => void }) {
  const active = link.status === 'valid';
  return (
    <li data-testid="invite-link" className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 text-sm">
      <span className="text-slate-700">
        {INVITE_TEXT.linkLine(formatDate(link.expiresAt), link.uses, link.cap)}
      </span>
      <span
        className={cx(
          'rounded-full px-2 py-0.5 text-xs font-semibold',
          active ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700',
        )}
      >
        {INVITE_TEXT.status[link.status]}
      </span>
      {active && (
        <Button variant="secondary" size="sm" loading={busy} onClick={onRevoke} className="ml-auto">
          {INVITE_TEXT.turnOff}
        </Button>
      )}
    </li>
  );
}
