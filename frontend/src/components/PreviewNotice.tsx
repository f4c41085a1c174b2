import { Info } from 'lucide-react';
import { useEffect } from 'react';
import type { Headshot } from '../lib/api/contracts';
import { cx } from '../lib/cx';

/**
 * What the results screen and the dashboard say when the offline `local` provider made headshots: they are the
 * customer's own photos cut out and placed on a new background, not AI headshots (docs/product-spec.md, step 4 and
 * the dashboard; issue 35 item 8: in the customer's words, with nothing they cannot act on).
 */
export const OFFLINE_PREVIEW_NOTICE =
  'Preview headshots: these are your own photos, cut out and placed on a new background, not AI headshots, because the AI image service is not connected here. Each one carries a "PREVIEW" mark.';

/** The operator's side of the same fact, for the browser's console (docs/faces.md, the `local` provider). */
export const OFFLINE_PREVIEW_HINT =
  'Offline previews: this stack has no OPENAI_API_KEY, so the local provider made these headshots (docs/faces.md).';

/**
 * {@link OFFLINE_PREVIEW_NOTICE} as a note, shown when any of `headshots` is a preview (the API's per-headshot
 * `preview`, so headshots made offline keep saying so after a key is set); nothing otherwise. The developer's hint
 * ({@link OFFLINE_PREVIEW_HINT}) goes to the console once per notice shown, not on the page.
 */
export function PreviewNotice({
  headshots,
  className,
}: {
  headshots: readonly Pick<Headshot, 'preview'>[];
  className?: string;
}) {
  const shown = headshots.some((headshot) => headshot.preview);
  useEffect(() => {
    if (shown) console.info(OFFLINE_PREVIEW_HINT);
  }, [shown]);
  if (!shown) return null;
  const [title, ...rest] = OFFLINE_PREVIEW_NOTICE.split(': ');
  return (
    <p
      role="note"
      data-testid="offline-preview-notice"
      className={cx(
        'flex items-start gap-3 rounded-2xl bg-amber-50 p-4 text-left text-sm text-amber-950 ring-1 ring-amber-200',
        className,
      )}
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <span>
        <strong className="font-semibold">{title}:</strong> {rest.join(': ')}
      </span>
    </p>
  );
}
