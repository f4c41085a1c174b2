import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, Sparkles, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import type { InviteAccepted, InvitePreview } from '../../../../../functions/contracts/teams';
import { AppHeader } from '../../../components/AppHeader';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { paths, teamGeneratorHref, teamHref } from '../../../config/paths';
import type { ApiError } from '../../../lib/api-client';
import { useAuth, type AuthStatus } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import { acceptInvite, useInvitePreview } from '../api/invites';
import { inviteProblem, JOIN_TEXT } from '../utils/text';

/**
 * `/join/:token`, an invitation link (docs/product-spec.md §2 "Teams", docs/teams.md "Invitations"): open to
 * everyone. It previews the team's name (and the domains a domains-only link needs); signed out, 'Sign in' and
 * 'Create account' come back here; signed in, 'Join team' joins, then 'Make your team headshots'. A link that cannot
 * be used, and a join the API refuses (another domain, an unverified address, a personal link for someone else),
 * show the API's sentence (§8) with 'Go to Headshot Studio'.
 */
export function JoinPage() {
  const { token = '' } = useParams();
  const preview = useInvitePreview(token);
  const { status, signIn, signOut } = useAuth();
  const queryClient = useQueryClient();
  const join = useMutation<InviteAccepted, ApiError>({
    mutationFn: () => acceptInvite(token),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all }),
  });
  const here = `/join/${encodeURIComponent(token)}`;

  // Signed in with an address the link does not take: the way to sign in with another, back to this link.
  const otherAddress = () => void signOut().then(() => signIn(here, { mode: 'signIn', replace: true }));

  let body;
  if (preview.isPending) {
    body = <Spinner className="mx-auto text-brand-600" label={JOIN_TEXT.loading} />;
  } else if (preview.isError || inviteProblem(preview.data.status)) {
    const message = preview.isError ? preview.error.message : inviteProblem(preview.data.status)!;
    body = <Refused message={message} />;
  } else if (join.isSuccess) {
    body = <Joined joined={join.data} />;
  } else if (join.isError) {
    body = (
      <Refused message={join.error.message}>
        {ANOTHER_ADDRESS_CODES.has(join.error.code) && (
          <Button size="lg" onClick={otherAddress}>
            {JOIN_TEXT.otherAddress}
          </Button>
        )}
      </Refused>
    );
  } else {
    body = (
      <Invitation
        preview={preview.data}
        status={status}
        joining={join.isPending}
        onJoin={() => join.mutate()}
        onSignIn={(mode) => signIn(here, { mode })}
      />
    );
  }

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`${preview.data?.teamName ? JOIN_TEXT.title(preview.data.teamName) : JOIN_TEXT.loading} · Headshot Studio`}</title>
      <AppHeader />
      <main className="flex flex-1 items-start justify-center px-4 py-10 sm:py-16">
        <section
          aria-live="polite"
          className="w-full max-w-lg rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:p-10"
        >
          {body}
        </section>
      </main>
    </div>
  );
}

/** A link that can be used: the team's name, the domains it takes, and the way in (sign-in or 'Join team'). */
function Invitation({
  preview: { teamName, requiredDomains },
  status,
  joining,
  onJoin,
  onSignIn,
}: {
  preview: InvitePreview;
  status: AuthStatus;
  joining: boolean;
  onJoin: () => void;
  onSignIn: (mode: 'signIn' | 'signUp') => void;
}) {
  return (
    <>
      <Users aria-hidden="true" className="mx-auto size-10 text-brand-600" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight break-words text-slate-900">
        {JOIN_TEXT.title(teamName)}
      </h1>
      {requiredDomains.length > 0 && (
        <p className="mt-3 text-slate-700">{JOIN_TEXT.domains(requiredDomains)}</p>
      )}
      {status === 'signedOut' ? (
        <>
          <p className="mt-3 text-slate-600">{JOIN_TEXT.signedOut}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <Button size="lg" onClick={() => onSignIn('signUp')}>
              {JOIN_TEXT.signUp}
            </Button>
            <Button size="lg" variant="secondary" onClick={() => onSignIn('signIn')}>
              {JOIN_TEXT.signIn}
            </Button>
          </div>
        </>
      ) : (
        <Button
          size="lg"
          className="mt-8 w-full sm:w-auto"
          loading={joining || status === 'loading'}
          onClick={onJoin}
        >
          {JOIN_TEXT.join}
        </Button>
      )}
    </>
  );
}

/** Joined (or a member already): the way to the team's headshots and to its page. */
function Joined({ joined }: { joined: InviteAccepted }) {
  return (
    <>
      <CheckCircle2 aria-hidden="true" className="mx-auto size-10 text-emerald-600" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900" tabIndex={-1}>
        {joined.alreadyMember ? JOIN_TEXT.already(joined.teamName) : JOIN_TEXT.joined(joined.teamName)}
      </h1>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <ButtonLink to={teamGeneratorHref(joined.teamId)} size="lg">
          <Sparkles aria-hidden="true" className="size-5" />
          {JOIN_TEXT.make}
        </ButtonLink>
        <ButtonLink to={teamHref(joined.teamId)} size="lg" variant="secondary">
          {joined.teamName}
        </ButtonLink>
      </div>
    </>
  );
}

/** The refusals a join with another address would pass: the link's domains, or a personal link's address. */
const ANOTHER_ADDRESS_CODES: ReadonlySet<string> = new Set(['INVITE_WRONG_DOMAIN', 'INVITE_WRONG_ADDRESS']);

/** A link that cannot be used, or a join refused: the API's sentence and the way to the product. */
function Refused({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <>
      <AlertCircle aria-hidden="true" className="mx-auto size-10 text-amber-600" />
      <div role="alert" data-testid="join-refused">
        <h1 className="mt-4 text-lg font-semibold text-pretty text-slate-900">{message}</h1>
      </div>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
        {children}
        <ButtonLink to={paths.home.href} size="lg" variant="secondary">
          {JOIN_TEXT.home}
        </ButtonLink>
      </div>
    </>
  );
}
