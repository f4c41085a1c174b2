import { cx } from '../../lib/cx';

/**
 * "Preview" on a headshot the offline `local` provider made (the API's `preview`): a composite of the customer's own
 * photos, not an AI headshot. The image itself carries a "PREVIEW" mark too, so downloads say it as well.
 */
export function PreviewBadge({ preview, className }: { preview: boolean; className?: string }) {
  if (!preview) return null;
  return (
    <span
      data-testid="preview-badge"
      title="An offline composite of your own photos, not an AI headshot"
      className={cx(
        'inline-flex items-center rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset',
        className,
      )}
    >
      Preview<span className="sr-only">: an offline composite of your own photos, not an AI headshot</span>
    </span>
  );
}
