import { canonicalUrl } from '../../../lib/canonical';
import { ChevronRight, Gift } from 'lucide-react';
import { Link } from 'react-router-dom';
import { LazyPackPurchase } from '../../../components/packs/LazyPackPurchase';
import { PricingFooter, PricingHeader } from '../../../components/PricingHeader';
import { TrustLine } from './TrustLine';
import { paths } from '../../../config/paths';
import { SIGNUP_BONUS_CREDITS } from '../../../../../functions/domain/credits';
import { COST_PER_HEADSHOT_LINE } from '../../../lib/headshot-cost';

/** The pricing page's texts (docs/product-spec.md §2 "Pricing page"), verbatim. */
export const PRICING_TEXT = {
  title: 'Choose Your Credit Pack',
  /** From the credits a headshot costs (lib/headshot-cost.ts). */
  costLine: COST_PER_HEADSHOT_LINE,
  freeCredits: `New users get ${SIGNUP_BONUS_CREDITS} free credits to try the service!`,
} as const;

/**
 * `/pricing` (docs/product-spec.md §2): header (Back, Home, Dashboard, credits when signed in), breadcrumb, title, the three packs
 * from `GET /api/packs` with their 'Get N Credits' buttons, and the trust line. Open to everyone; buying asks
 * signed-out visitors to sign in first and sends signed-in users to the hosted checkout in this tab.
 */
export function PricingPage() {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>Pricing · Headshot Studio</title>
      <link rel="canonical" href={canonicalUrl(paths.pricing.href)} />
      <PricingHeader />
      <main className="relative flex-1 overflow-hidden">
        {/* A soft brand glow behind the title; purely decorative. */}
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 -z-0 h-[28rem] bg-[radial-gradient(60%_60%_at_50%_0%,var(--color-brand-100),transparent)]"
        />
        <div className="relative mx-auto max-w-7xl px-4 pt-6 pb-20 sm:px-6 sm:pt-8 sm:pb-24 lg:px-8">
          <nav aria-label="Breadcrumb">
            <ol className="flex items-center gap-1.5 text-sm text-slate-600">
              <li>
                <Link to={paths.home.href} className="rounded font-medium hover:text-slate-900">
                  Home
                </Link>
              </li>
              <li aria-hidden="true">
                <ChevronRight className="size-4 text-slate-400" />
              </li>
              <li>
                <span aria-current="page" className="font-semibold text-slate-900">
                  Pricing
                </span>
              </li>
            </ol>
          </nav>

          <div className="mx-auto mt-10 max-w-2xl text-center sm:mt-12">
            <h1 className="font-display text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">
              {PRICING_TEXT.title}
            </h1>
            <p className="mt-4 text-lg text-pretty text-slate-600">{PRICING_TEXT.costLine}</p>
            <p className="mt-6 inline-flex items-center gap-2 rounded-2xl bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200 sm:rounded-full">
              <Gift aria-hidden="true" className="size-4 shrink-0" />
              {PRICING_TEXT.freeCredits}
            </p>
          </div>

          <section aria-labelledby="packs-title" className="mt-14 sm:mt-20">
            <h2 id="packs-title" className="sr-only">
              Credit packs
            </h2>
            <LazyPackPurchase />
          </section>

          <p className="mt-10 text-center text-sm text-slate-500">
            One-time payment in USD. No subscription, no recurring charges.
          </p>

          <TrustLine />
        </div>
      </main>
      <PricingFooter />
    </div>
  );
}
