import { CircleCheck, CircleX, LayoutDashboard, Mail, RotateCcw, WandSparkles } from 'lucide-react';
import { useCallback, useEffect, useRef, type ReactNode, type Ref } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ButtonLink } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { PricingFooter, PricingHeader } from '../../../components/PricingHeader';
import { useCountdown } from '../hooks/use-countdown';
import { usePaymentVerification } from '../hooks/use-payment-verification';
import { paths } from '../../../config/paths';

/** Seconds from 'Payment Successful!' to the automatic move to /dashboard (docs/product-spec.md §9). */
export const REDIRECT_SECONDS = 3;

/** The payment result page's texts (docs/product-spec.md §2 "Payment result page"), verbatim. */
export const PAYMENT_RESULT_TEXT = {
  verifying: 'Verifying Payment',
  success: 'Payment Successful!',
  failed: 'Payment Verification Failed',
  failedBody: "We couldn't verify your payment. Please contact our support team for assistance.",
} as const;

/** 'Redirecting to dashboard in N seconds...' at every tick, 1 included, as the spec writes it (docs/product-spec.md §2). */
export function redirectingText(seconds: number): string {
  return `Redirecting to dashboard in ${seconds} seconds...`;
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
  return <PaymentResult key={sessionId} sessionId={sessionId} />;
}

function PaymentResult({ sessionId }: { sessionId: string }) {
  const outcome = usePaymentVerification(sessionId);
  const navigate = useNavigate();
  const goToDashboard = useCallback(() => void navigate(paths.dashboard.href, { replace: true }), [navigate]);
  const secondsLeft = useCountdown(REDIRECT_SECONDS, {
    enabled: outcome.state === 'success',
    onDone: goToDashboard,
  });

  // Move focus to the new heading when the outcome is known, so screen readers announce it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (outcome.state === 'success' || outcome.state === 'failed') headingRef.current?.focus();
  }, [outcome.state]);

  const pageTitle =
    outcome.state === 'success'
      ? 'Payment successful'
      : outcome.state === 'failed'
        ? 'Payment verification failed'
        : 'Verifying payment';

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`${pageTitle} · Headshot Studio`}</title>
      <PricingHeader showBack={false} />
      <main className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:px-6 sm:py-16">
        <section
          aria-labelledby="payment-result-title"
          data-state={outcome.state}
          className="w-full max-w-xl rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200 sm:px-12 sm:py-12"
        >
          {outcome.state === 'success' ? (
            <>
              <ResultIcon tone="success" />
              <Heading ref={headingRef}>{PAYMENT_RESULT_TEXT.success}</Heading>
              <p className="mt-3 text-pretty text-slate-600">
                {outcome.creditsAdded > 0
                  ? `${credits(outcome.creditsAdded)} ${outcome.creditsAdded === 1 ? 'has' : 'have'} been added to your account.`
                  : 'Your credits are in your account.'}
              </p>
              <div className="mt-8 rounded-2xl bg-brand-50 px-6 py-5 ring-1 ring-brand-100">
                <p className="text-sm font-medium text-brand-800">Your new balance</p>
                <p
                  data-testid="new-balance"
                  className="mt-1 font-display text-4xl font-bold tracking-tight text-brand-700"
                >
                  {credits(outcome.credits)}
                </p>
              </div>
              <div className="mt-8">
                <p role="status" aria-live="polite" aria-atomic="true" className="text-sm text-slate-600">
                  {redirectingText(Math.max(secondsLeft, 1))}
                </p>
                <div
                  aria-hidden="true"
                  className="mx-auto mt-3 h-1 w-40 overflow-hidden rounded-full bg-slate-100"
                >
                  <div
                    className="h-full rounded-full bg-brand-600 transition-[width] duration-1000 ease-linear motion-reduce:transition-none"
                    style={{ width: `${((REDIRECT_SECONDS - secondsLeft + 1) / REDIRECT_SECONDS) * 100}%` }}
                  />
                </div>
              </div>
              <Actions>
                <ButtonLink to={paths.dashboard.href} replace>
                  <LayoutDashboard aria-hidden="true" className="size-4" />
                  Go to Dashboard
                </ButtonLink>
                <ButtonLink to={paths.generator.href} replace variant="secondary">
                  <WandSparkles aria-hidden="true" className="size-4" />
                  Start Generating
                </ButtonLink>
              </Actions>
              <SupportLine />
            </>
          ) : outcome.state === 'failed' ? (
            <>
              <ResultIcon tone="failed" />
              <Heading ref={headingRef}>{PAYMENT_RESULT_TEXT.failed}</Heading>
              <p className="mt-3 text-pretty text-slate-600">{PAYMENT_RESULT_TEXT.failedBody}</p>
              <p className="mt-4 text-sm text-pretty text-slate-500">
                If your card was charged, your credits are safe: we add them as soon as the payment is
                confirmed.
              </p>
              <Actions>
                <ButtonLink to={paths.pricing.href} replace>
                  <RotateCcw aria-hidden="true" className="size-4" />
                  Try Again
                </ButtonLink>
                <ButtonLink to={paths.dashboard.href} replace variant="secondary">
                  <LayoutDashboard aria-hidden="true" className="size-4" />
                  Go to Dashboard
                </ButtonLink>
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
        </section>
      </main>
      <PricingFooter />
    </div>
  );
}

function Heading({ ref, children }: { ref?: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <h1
      ref={ref}
      id="payment-result-title"
      tabIndex={-1}
      className="mt-6 font-display text-2xl font-bold tracking-tight text-balance text-slate-900 outline-none sm:text-3xl"
    >
      {children}
    </h1>
  );
}

function ResultIcon({ tone }: { tone: 'success' | 'failed' }) {
  const Icon = tone === 'success' ? CircleCheck : CircleX;
  return (
    <span
      className={
        tone === 'success'
          ? 'mx-auto flex size-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-600 ring-8 ring-emerald-50/60'
          : 'mx-auto flex size-16 items-center justify-center rounded-full bg-rose-50 text-rose-600 ring-8 ring-rose-50/60'
      }
    >
      <Icon aria-hidden="true" className="size-9" />
    </span>
  );
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{children}</div>;
}

/** 'Need help? Email our support team at {email}' with a mailto link; the address is the runtime config's. */
function SupportLine() {
  const { supportEmail } = useRuntimeConfig();
  return (
    <p className="mt-8 border-t border-slate-100 pt-6 text-sm text-pretty text-slate-600">
      <Mail aria-hidden="true" className="mr-1.5 inline size-4 -translate-y-px align-middle text-slate-400" />
      Need help? Email our support team at{' '}
      <a
        href={`mailto:${supportEmail}`}
        className="rounded font-medium text-brand-700 underline decoration-brand-200 underline-offset-4 [overflow-wrap:anywhere] hover:text-brand-800 hover:decoration-brand-400"
      >
        {supportEmail}
      </a>
    </p>
  );
}
