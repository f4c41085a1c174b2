import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import { cx } from '../../../lib/cx';
import type { PhotoCheck } from '../hooks/use-photo-checks';

const VERDICT_LOOK = {
  good: { Icon: CheckCircle2, label: 'Good photo', colour: 'bg-emerald-600' },
  warning: { Icon: AlertTriangle, label: 'Usable, could be better', colour: 'bg-amber-500' },
  rejected: { Icon: XCircle, label: 'Not used', colour: 'bg-red-600' },
} as const;

/**
 * A photo's verdict on its thumbnail: an icon that can be focused, with the reasons in a tooltip on hover and on
 * focus, and in its accessible name for screen readers.
 */
export function VerdictBadge({ check, index }: { check: PhotoCheck; index: number }) {
  const look = VERDICT_LOOK[check.verdict];
  const reasons = check.reasons.map((r) => r.message);
  const text = reasons.length > 0 ? reasons.join(' ') : 'Clear, well-lit photo of your face.';
  return (
    <span className="group absolute top-1.5 left-1.5" data-testid="photo-verdict">
      <span
        tabIndex={0}
        role="img"
        aria-label={`Photo ${index + 1}: ${look.label}. ${text}`}
        className={cx(
          'flex size-7 items-center justify-center rounded-full text-white shadow-sm ring-2 ring-white',
          'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600',
          look.colour,
        )}
      >
        <look.Icon aria-hidden="true" className="size-4" />
      </span>
      <span
        role="tooltip"
        className="pointer-events-none absolute top-8 left-0 z-30 hidden w-48 rounded-lg bg-slate-900 px-2.5 py-2 text-xs leading-snug text-white shadow-lg group-focus-within:block group-hover:block"
      >
        <span className="block font-semibold">{look.label}</span>
        {text}
      </span>
      {check.verdict === 'rejected' && (
        <span className="absolute top-0 left-8 rounded-full bg-red-600 px-2 py-0.5 text-[0.6875rem] font-semibold whitespace-nowrap text-white shadow-sm">
          Not used
        </span>
      )}
    </span>
  );
}
