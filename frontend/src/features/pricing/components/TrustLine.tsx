import { CreditCard, Lock, ShieldCheck, Zap, type LucideIcon } from 'lucide-react';

interface TrustItem {
  icon: LucideIcon;
  /** The spec's wording (§2 "Trust line"), verbatim. */
  title: string;
  detail: string;
}

/** The four reassurances under the packs, in the spec's order and words. */
export const TRUST_ITEMS: readonly TrustItem[] = [
  {
    icon: Lock,
    title: 'Secure Payment',
    detail: 'Encrypted checkout. Your card details never touch our servers.',
  },
  {
    icon: CreditCard,
    title: 'Protected by a card payment provider',
    detail: 'Payments are processed by Stripe.',
  },
  {
    icon: Zap,
    title: 'Instant Access',
    detail: 'Credits are added to your account as soon as you pay.',
  },
  {
    icon: ShieldCheck,
    title: 'Commercial Rights',
    detail: 'Use your headshots anywhere, including for business.',
  },
];

/** The pricing page's trust line (docs/product-spec.md §2): Secure Payment, Protected by a card payment provider, Instant Access, Commercial Rights. */
export function TrustLine() {
  return (
    <section
      aria-labelledby="trust-title"
      className="render-when-near mx-auto mt-16 max-w-5xl [--rendered-height:420px] sm:mt-20 sm:[--rendered-height:224px] lg:[--rendered-height:176px]"
    >
      <h2 id="trust-title" className="sr-only">
        Why you can buy with confidence
      </h2>
      <ul className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 sm:gap-4 lg:grid-cols-4">
        {TRUST_ITEMS.map(({ icon: Icon, title, detail }) => (
          <li
            key={title}
            className="flex items-start gap-3 rounded-2xl bg-white p-4 shadow-xs ring-1 ring-slate-200 sm:p-5 lg:flex-col lg:items-center lg:text-center"
          >
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div>
              <p className="text-sm font-semibold text-slate-900">{title}</p>
              <p className="mt-1 text-sm text-pretty text-slate-600">{detail}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
