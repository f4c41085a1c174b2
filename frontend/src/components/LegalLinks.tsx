import { Link } from 'react-router-dom';
import { paths } from '../config/paths';

/** The three legal pages with the names every link to them uses (issue 27 item 7). */
export const LEGAL_PAGES = [
  { href: paths.terms.href, label: 'Terms of Service' },
  { href: paths.privacy.href, label: 'Privacy Policy' },
  { href: paths.refunds.href, label: 'Refund Policy' },
] as const;

/**
 * The legal pages as a list of links, for footers. `linkClassName` styles each link (footers differ in tone);
 * `className` the list.
 */
export function LegalLinks({ className, linkClassName }: { className?: string; linkClassName: string }) {
  return (
    <ul className={className}>
      {LEGAL_PAGES.map(({ href, label }) => (
        <li key={href}>
          <Link to={href} className={linkClassName}>
            {label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The line shown where a purchase starts (the credit packs, before the hosted checkout): buying accepts the Terms
 * and the Refund Policy, linked.
 */
export function CheckoutTermsNote({ className }: { className?: string }) {
  return (
    <p className={className ?? 'mt-8 text-center text-sm text-pretty text-slate-600'}>
      By buying credits you agree to our{' '}
      <Link
        to={paths.terms.href}
        className="rounded font-medium text-brand-700 underline hover:text-brand-800"
      >
        Terms of Service
      </Link>{' '}
      and{' '}
      <Link
        to={paths.refunds.href}
        className="rounded font-medium text-brand-700 underline hover:text-brand-800"
      >
        Refund Policy
      </Link>
      . Payment is handled by Stripe.
    </p>
  );
}
