import { CircleCheck, CircleX, LayoutDashboard, Mail, Undo2 } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import { PricingFooter, PricingHeader } from '../../../components/PricingHeader';
import { ButtonLink } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';

/**
 * The pieces the payment pages share (the payment result page and the not-completed page Stripe's Cancel returns
 * to): the page frame, the card's icon and heading, its row of actions and the support line.
 */

/** The page around a result card: the pricing header without Back, the card, the footer. */
export function ResultFrame({
  title,
  state,
  children,
}: {
  title: string;
  state: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`${title} · Headshot Studio`}</title>
      <PricingHeader showBack={false} />
      <main className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:px-6 sm:py-16">
        <section
          aria-labelledby="payment-result-title"
          data-state={state}
          className="w-full max-w-xl rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200 sm:px-12 sm:py-12"
        >
          {children}
        </section>
      </main>
      <PricingFooter />
    </div>
  );
}

/** The card's `h1`; it takes focus when the outcome is known, so screen readers announce it. */
export function Heading({ ref, children }: { ref?: Ref<HTMLHeadingElement>; children: ReactNode }) {
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

const TONES = {
  success: { Icon: CircleCheck, className: 'bg-emerald-50 text-emerald-600 ring-emerald-50/60' },
  failed: { Icon: CircleX, className: 'bg-rose-50 text-rose-600 ring-rose-50/60' },
  // Not completed: nothing went wrong with money, so no alarm red.
  neutral: { Icon: Undo2, className: 'bg-slate-100 text-slate-600 ring-slate-100/60' },
} as const;

/** The round icon above the heading. */
export function ResultIcon({ tone }: { tone: keyof typeof TONES }) {
  const { Icon, className } = TONES[tone];
  return (
    <span className={`mx-auto flex size-16 items-center justify-center rounded-full ring-8 ${className}`}>
      <Icon aria-hidden="true" className="size-9" />
    </span>
  );
}

/** The card's buttons: stacked on phones, in a row from `sm`. */
export function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{children}</div>;
}

/**
 * 'Go to Dashboard', in place of this entry (Back would verify or show the result again): the primary action after a
 * payment, the secondary one beside 'Check again' or 'Back to your headshots'.
 */
export function DashboardLink({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  return (
    <ButtonLink to={paths.dashboard.href} replace variant={variant}>
      <LayoutDashboard aria-hidden="true" className="size-4" />
      Go to Dashboard
    </ButtonLink>
  );
}

/** 'Need help? Email our support team at {email}' with a mailto link; the address is the runtime config's. */
export function SupportLine() {
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
