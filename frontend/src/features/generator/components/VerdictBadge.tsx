import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import { InfoToggle } from '../../../components/ui/InfoToggle';
import { cx } from '../../../lib/cx';
import type { PhotoCheck } from '../hooks/use-photo-checks';

const VERDICT_LOOK = {
  good: { Icon: CheckCircle2, label: 'Good photo', colour: 'bg-emerald-600' },
  warning: { Icon: AlertTriangle, label: 'Usable, could be better', colour: 'bg-amber-500' },
  rejected: { Icon: XCircle, label: 'Not used', colour: 'bg-red-600' },
} as const;

/** Where a tile's explanation opens: towards the grid's middle, so the last column's does not leave the screen. */
function panelSide(index: number): string {
  const mobile = index % 3 === 2 ? 'right-1' : 'left-1';
  const wide = index % 5 >= 3 ? 'sm:right-1 sm:left-auto' : 'sm:left-1 sm:right-auto';
  return cx(mobile, wide);
}

/**
 * A photo's verdict on its thumbnail: an icon button that shows why on a tap (or Enter), with the reasons in its
 * disclosure (issue 27.5: a phone has no hover). Rendered by the tile, which it sits in at the top left; the tile's
 * remove button stays at the top right, uncovered.
 */
export function VerdictBadge({ check, index }: { check: PhotoCheck; index: number }) {
  const look = VERDICT_LOOK[check.verdict];
  const reasons = check.reasons.map((r) => r.message);
  const text = reasons.length > 0 ? reasons.join(' ') : 'Clear, well-lit photo of your face.';
  return (
    <InfoToggle
      testId="photo-verdict"
      label={`Photo ${index + 1}: ${look.label}. Why?`}
      triggerClassName={cx(
        // A 28 px icon with a 40 px touch target around it.
        'absolute top-1.5 left-1.5 flex size-7 items-center justify-center rounded-full text-white shadow-sm ring-2 ring-white',
        'before:absolute before:-inset-1.5 before:content-[""]',
        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600',
        look.colour,
      )}
      trigger={<look.Icon aria-hidden="true" className="size-4" />}
      panelClassName={cx('top-10', panelSide(index))}
    >
      <span className="block font-semibold">{look.label}</span>
      {text}
    </InfoToggle>
  );
}
