import { ScanFace } from 'lucide-react';
import { cx } from '../../lib/cx';

/**
 * A headshot's likeness to the customer's photos (0-100, measured by the server's face model) as a small pill:
 * "92% match". Nothing for headshots made before likeness was measured.
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
    <span
      data-testid="likeness-badge"
      title="How closely this headshot matches the face in your photos"
      className={cx(
        'inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-1 text-emerald-700 ring-1 ring-emerald-100 sm:px-2.5',
        className,
      )}
    >
      <ScanFace aria-hidden="true" className="size-3.5" />
      <span>
        {likeness}% match<span className="sr-only"> with your photos</span>
      </span>
    </span>
  );
}
