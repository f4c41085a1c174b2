import { ArrowLeft, RefreshCw, Users, WandSparkles } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import type { PackId } from '../../../lib/api/get-packs';
import { checkoutReturnsToWizard, lastCheckoutPack } from '../../../lib/checkout-return';
import { useCountdown } from '../hooks/use-countdown';
import { usePaymentVerification } from '../hooks/use-payment-verification';
import { paths, teamHref } from '../../../config/paths';
import { NotCompleted, NOT_COMPLETED_TEXT } from './NotCompleted';
import { Actions, DashboardLink, Heading, ResultFrame, ResultIcon, SupportLine } from './ResultParts';

/** Seconds from 'Payment Successful!' to the automatic move to /dashboard (docs/product-spec.md §9). */
export const REDIRECT_SECONDS = 3;

/** The payment result page's texts (docs/product-spec.md §2 "Payment result page"), verbatim. */
export const PAYMENT_RESULT_TEXT = {
  verifying: 'Verifying Payment',
  success: 'Payment Successful!',
  failed: 'Payment Verification Failed',
  failedBody: "We couldn't verify your payment. Please contact our support team for assistance.",
  /** Ours (issue 27): asks Stripe about the same Checkout Session again; never a new purchase. */
  checkAgain: 'Check again',
  /** Ours (issue 27): after buying from the wizard's Buy More. */
  wizardKept: 'Your photos and choices are kept.',
  backToWizard: NOT_COMPLETED_TEXT.backToWizard,
  /** Ours (issue 37): a team's seat purchase returns to the team's page. */
  teamAdded: (n: number) => `${credits(n)} ${n === 1 ? 'has' : 'have'} been added to your team.`,
  teamBalance: "Your team's balance",
  backToTeam: 'Back to your team',
  redirectingToTeam: (seconds: number) =>
    `Redirecting to your team in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}...`,
} as const;

/** A team's id in `?team=` (a seat purchase's success URL: `…&redirect=team&team=<teamId>`), else null. */
export function teamOfReturn(params: URLSearchParams): string | null {
  const team = params.get('team');
  return params.get('redirect') === 'team' && team && /^[0-9A-Za-z]{1,64}$/.test(team) ? team : null;
}

/**
 * 'Redirecting to dashboard in N seconds...' at every tick (docs/product-spec.md §2), '1 second' at the last (ours,
 * issue 35: the spec's 'in 1 seconds' read as a typo).
 */
export function redirectingText(seconds: number): string {
  return `Redirecting to dashboard in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}...`;
}

/** `1 credit`, `66 credits`. */
function credits(n: number): string {
  return `${n} ${n === 1 ? 'credit' : 'credits'}`;
}

/**
 * The payment result page: any path starting with `/success` (the Checkout success URL is
 * `/success?session_id=cs_…&redirect=dashboard`; `redirect` is ignored). Without a `session_id` it sends the
 * visitor to /pricing; otherwise it verifies the session (signing in first if needed) and shows the outcome.
 */
export function PaymentResultPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  if (!sessionId) return <Navigate to={paths.pricing.href} replace />;
  // A new session id starts over: its own verification and its own countdown.
  return <PaymentResult key={sessionId} sessionId={sessionId} teamId={teamOfReturn(params)} />;
}

const TITLES = {
  success: 'Payment successful',
  failed: 'Payment verification failed',
  notPaid: NOT_COMPLETED_TEXT.title,
  verifying: 'Verifying payment',
  signingIn: 'Verifying payment',
} as const;

/**
 * One session's outcome (docs/product-spec.md §2): verifying; success with the new balance and the 3-second
 * countdown to /dashboard — or, when the purchase started from the wizard's Buy More, the way back to the wizard
 * with its photos and choices, and no countdown; a team's seat purchase (`&redirect=team&team=<teamId>`, issue 37)
 * counts down to the team's page instead, with the team's balance; not paid (declined or cancelled: nothing charged, the same pack
 * again); a failed verification with 'Check again', which asks about the same session (a second purchase is never
 * one tap away).
 */
function PaymentResult({ sessionId, teamId }: { sessionId: string; teamId: string | null }) {
  const { outcome, recheck, rechecking } = usePaymentVerification(sessionId);
  const navigate = useNavigate();
  const [toWizard] = useState(() => !teamId && checkoutReturnsToWizard());
  const [packId] = useState(() => lastCheckoutPack() as PackId | null);
  const after = teamId ? teamHref(teamId) : paths.dashboard.href;
  const goToDashboard = useCallback(() => void navigate(after, { replace: true }), [navigate, after]);
  const secondsLeft = useCountdown(REDIRECT_SECONDS, {
    enabled: outcome.state === 'success' && !toWizard,
    onDone: goToDashboard,
  });

  // Move focus to the new heading when the outcome is known, so screen readers announce it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (outcome.state !== 'verifying' && outcome.state !== 'signingIn') headingRef.current?.focus();
  }, [outcome.state]);

  return (
    <ResultFrame title={TITLES[outcome.state]} state={outcome.state}>
      {outcome.state === 'success' ? (
        <>
          <ResultIcon tone="success" />
          <Heading ref={headingRef}>{PAYMENT_RESULT_TEXT.success}</Heading>
          <p className="mt-3 text-pretty text-slate-600">
            {teamId && outcome.creditsAdded > 0
              ? PAYMENT_RESULT_TEXT.teamAdded(outcome.creditsAdded)
              : outcome.creditsAdded > 0
                ? `${credits(outcome.creditsAdded)} ${outcome.creditsAdded === 1 ? 'has' : 'have'} been added to your account.`
                : 'Your credits are in your account.'}
          </p>
          <div className="mt-8 rounded-2xl bg-brand-50 px-6 py-5 ring-1 ring-brand-100">
            <p className="text-sm font-medium text-brand-800">
              {teamId ? PAYMENT_RESULT_TEXT.teamBalance : 'Your new balance'}
            </p>
            <p
              data-testid="new-balance"
              className="mt-1 font-display text-4xl font-bold tracking-tight text-brand-700"
            >
              {credits(outcome.credits)}
            </p>
          </div>
          {toWizard ? (
            <>
              <p className="mt-8 text-sm text-slate-600">{PAYMENT_RESULT_TEXT.wizardKept}</p>
              <Actions>
                <ButtonLink to={paths.generator.href} replace>
                  <ArrowLeft aria-hidden="true" className="size-4" />
                  {PAYMENT_RESULT_TEXT.backToWizard}
                </ButtonLink>
                <DashboardLink variant="secondary" />
              </Actions>
            </>
          ) : (
            <CountdownNext secondsLeft={secondsLeft} teamId={teamId} />
          )}
          <SupportLine />
        </>
      ) : outcome.state === 'notPaid' ? (
        <NotCompleted packId={teamId ? null : packId} teamId={teamId} headingRef={headingRef} />
      ) : outcome.state === 'failed' ? (
        <>
          <ResultIcon tone="failed" />
          <Heading ref={headingRef}>{PAYMENT_RESULT_TEXT.failed}</Heading>
          <p className="mt-3 text-pretty text-slate-600">{PAYMENT_RESULT_TEXT.failedBody}</p>
          <p className="mt-4 text-sm text-pretty text-slate-500">
            If your card was charged, your credits are safe: we add them as soon as the payment is confirmed.
          </p>
          <Actions>
            <Button loading={rechecking} onClick={recheck}>
              {!rechecking && <RefreshCw aria-hidden="true" className="size-4" />}
              {PAYMENT_RESULT_TEXT.checkAgain}
            </Button>
            <DashboardLink variant="secondary" />
          </Actions>
          <SupportLine />
        </>
      ) : (
        <>
          <span className="mx-auto flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600">
            <Spinner size="lg" label={null} />
          </span>
          <Heading>{PAYMENT_RESULT_TEXT.verifying}</Heading>
          <p role="status" aria-live="polite" className="mt-3 text-pretty text-slate-600">
            {outcome.state === 'signingIn'
              ? 'Redirecting to sign in...'
              : 'Please wait while we confirm your payment. This only takes a moment.'}
          </p>
        </>
      )}
    </ResultFrame>
  );
}

/**
 * After a purchase not started from the wizard: the countdown to where the purchase belongs (the dashboard, or the
 * team's page for a seat purchase) and the ways on.
 */
function CountdownNext({ secondsLeft, teamId }: { secondsLeft: number; teamId: string | null }) {
  const seconds = Math.max(secondsLeft, 1);
  return (
    <>
      <div className="mt-8">
        <p role="status" aria-live="polite" aria-atomic="true" className="text-sm text-slate-600">
          {teamId ? PAYMENT_RESULT_TEXT.redirectingToTeam(seconds) : redirectingText(seconds)}
        </p>
        <div aria-hidden="true" className="mx-auto mt-3 h-1 w-40 overflow-hidden rounded-full bg-slate-100">
          <div
            className="h-full rounded-full bg-brand-600 transition-[width] duration-1000 ease-linear motion-reduce:transition-none"
            style={{ width: `${((REDIRECT_SECONDS - secondsLeft + 1) / REDIRECT_SECONDS) * 100}%` }}
          />
        </div>
      </div>
      <Actions>
        {teamId ? (
          <>
            <ButtonLink to={teamHref(teamId)} replace>
              <Users aria-hidden="true" className="size-4" />
              {PAYMENT_RESULT_TEXT.backToTeam}
            </ButtonLink>
            <DashboardLink variant="secondary" />
          </>
        ) : (
          <>
            <DashboardLink />
            <ButtonLink to={paths.generator.href} replace variant="secondary">
              <WandSparkles aria-hidden="true" className="size-4" />
              Start Generating
            </ButtonLink>
          </>
        )}
      </Actions>
    </>
  );
}
