import { cx } from '../../../lib/cx';
import { HERO_FACTS } from '../utils/proof';

/**
 * Three facts under the hero's button, each a figure over what it counts (docs/product-spec.md §2 "Landing page"):
 * read from the product's own rules (utils/proof.ts), in place of ratings the product has no source for.
 */
export function HeroFacts({ className }: { className?: string }) {
  return (
    <dl className={cx('grid grid-cols-3 gap-4 sm:gap-8', className)}>
      {HERO_FACTS.map((fact) => (
        <div key={fact.label} className="flex flex-col gap-1">
          <dt className="order-2 text-sm leading-snug text-slate-600">{fact.label}</dt>
          <dd className="order-1 text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
            {fact.prefix && <span className="text-sm font-semibold text-slate-600">{fact.prefix} </span>}
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
