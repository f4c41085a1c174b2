import { ScanFace } from 'lucide-react';
import { cx } from '../../lib/cx';
import { InfoToggle } from './InfoToggle';

/** What the likeness percent means: the disclosure's text (docs/product-spec.md, "Likeness"). */
export const LIKENESS_EXPLANATION =
  'How closely this headshot matches the face in your photos, measured by our face model. A headshot that does not look like you is not delivered, and its credit is refunded.';

/**
 * A headshot's likeness to the customer's photos (0-100, measured by the server's face model) as a small pill
 * button, "92% match", whose tap shows what the percent means (issue 27.5: no hover-only tooltip), floating inside
 * the screen whatever card it sits on (issue 35 item 6). Nothing for
 * headshots made before likeness was measured.
 */
export function LikenessBadge({
  likeness,
  className,
}: {
  likeness: number | null | undefined;
  className?: string;
}) {
  if (likeness === null || likeness === undefined) return null;
  return (
    <InfoToggle
      testId="likeness-badge"
      className="relative inline-flex"
      label={`${likeness}% match with your photos. What does this mean?`}
      triggerClassName={cx(
        'inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-1 text-emerald-700 ring-1 ring-emerald-100 hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 sm:px-2.5',
        className,
      )}
      trigger={
        <>
          <ScanFace aria-hidden="true" className="size-3.5" />
          <span>{likeness}% match</span>
        </>
      }
      floating
      panelClassName="w-56 max-w-[calc(100vw-1rem)]"
    >
      {LIKENESS_EXPLANATION}
    </InfoToggle>
  );
}
