import { Check, Sparkles } from 'lucide-react';
import { Button } from '../ui/Button';
import { NavigationButton } from '../ui/NavigationButton';
import { cx } from '../../lib/cx';
import type { Pack } from '../../lib/api/get-packs';
import { formatPerCredit, formatPrice } from '../../lib/format-price';

/** Props of {@link PackCard}. */
export interface PackCardProps {
  pack: Pack;
  /** Called when the buy button is pressed. */
  onSelect: (pack: Pack) => void;
  /** This pack's purchase is starting: the button reads 'Processing...' and is disabled. */
  processing?: boolean;
  /** Disables the button, e.g. while another pack's purchase is starting. */
  disabled?: boolean;
  /**
   * Where the button goes when tapped before the app's script has run (a page rendered at build time): without it
   * the button only works once the app has loaded. See {@link NavigationButton}.
   */
  href?: string;
}

/** One credit pack: name, price, credits, per-credit price, features and a 'Get N Credits' button. */
export function PackCard({ pack, onSelect, processing = false, disabled = false, href }: PackCardProps) {
  const titleId = `pack-${pack.id}-title`;
  const label = processing ? 'Processing...' : `Get ${pack.credits} Credits`;
  const buttonProps = {
    className: 'mt-8 w-full',
    variant: pack.popular ? 'primary' : 'secondary',
    size: 'md',
    disabled,
    loading: processing,
  } as const;
  return (
    <article
      aria-labelledby={titleId}
      className={cx(
        'relative flex flex-col rounded-3xl bg-white p-6 sm:p-8',
        pack.popular
          ? 'shadow-xl ring-2 shadow-brand-600/10 ring-brand-600 lg:-my-4 lg:py-12'
          : 'shadow-sm ring-1 ring-slate-200',
      )}
    >
      {pack.popular && (
        <p className="absolute -top-3.5 left-1/2 inline-flex -translate-x-1/2 items-center gap-1 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold tracking-wide whitespace-nowrap text-white uppercase shadow-sm">
          <Sparkles aria-hidden="true" className="size-3.5" />
          Most Popular
        </p>
      )}
      <h3 id={titleId} className="text-lg font-semibold text-slate-900">
        {pack.name}
      </h3>
      <p className="mt-4 flex items-baseline gap-2">
        <span className="text-5xl font-bold tracking-tight text-slate-900">
          {formatPrice(pack.priceCents, pack.currency)}
        </span>
        <span className="text-sm font-medium text-slate-600">one-time</span>
      </p>
      <p className="mt-3 text-base font-semibold text-brand-700">{pack.credits} credits</p>
      <p className="mt-1 text-sm text-slate-600">
        {formatPerCredit(pack.pricePerCredit, pack.currency)} per credit
      </p>
      <ul className="mt-6 flex-1 space-y-3 border-t border-slate-100 pt-6 text-sm text-slate-700">
        {pack.features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      {href ? (
        <NavigationButton href={href} onClick={() => onSelect(pack)} {...buttonProps}>
          {label}
        </NavigationButton>
      ) : (
        <Button onClick={() => onSelect(pack)} {...buttonProps}>
          {label}
        </Button>
      )}
    </article>
  );
}
