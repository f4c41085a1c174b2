import { Gift, Lock, ShieldCheck, Zap } from 'lucide-react';
import type { StartCheckoutOptions } from '../../../hooks/use-start-checkout';
import { LazyPackPurchase } from '../../../components/packs/LazyPackPurchase';
import { SIGNUP_BONUS_CREDITS } from '../../../../../functions/domain/credits';
import { COST_PER_HEADSHOT_LINE } from '../../../lib/headshot-cost';
import { SectionHeading } from './SectionHeading';
import { LandingSection } from './LandingSection';

const TRUST = [
  { icon: Lock, text: 'Secure Payment' },
  { icon: Zap, text: 'Instant Access' },
  { icon: ShieldCheck, text: 'Commercial Rights' },
];

/**
 * The landing page's pricing section (`#pricing`, the top bar's Pricing link). `scroll-mt` keeps the title clear
 * of the sticky top bar when scrolled to. `returnTo`: where sign-in comes back to when a signed-out visitor picks a
 * pack (see `useStartCheckout`).
 */
export function PricingSection({ returnTo }: Pick<StartCheckoutOptions, 'returnTo'>) {
  return (
    <LandingSection
      id="pricing"
      titleId="pricing-title"
      tabIndex={-1}
      className="scroll-mt-16 py-16 outline-none [--rendered-height:2103px] sm:py-24 lg:[--rendered-height:1105px]"
    >
      <div className="mx-auto max-w-2xl text-center">
        <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple credit packs, no subscription">
          {COST_PER_HEADSHOT_LINE}. Buy once and use your credits whenever you like.
        </SectionHeading>
        <p className="mt-6 inline-flex items-center gap-2 rounded-2xl bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200 sm:rounded-full">
          <Gift aria-hidden="true" className="size-4 shrink-0" />
          New users get {SIGNUP_BONUS_CREDITS} free credits to try the service!
        </p>
      </div>
      <div className="mt-14 sm:mt-16">
        <LazyPackPurchase returnTo={returnTo} />
      </div>
      <ul className="mt-12 flex flex-wrap items-center justify-center gap-x-8 gap-y-3 text-sm font-medium text-slate-600">
        {TRUST.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-center gap-2">
            <Icon aria-hidden="true" className="size-4 text-slate-500" />
            {text}
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
