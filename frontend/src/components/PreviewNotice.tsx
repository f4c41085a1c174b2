import { Info } from 'lucide-react';
import type { Headshot } from '../lib/api/contracts';
import { cx } from '../lib/cx';

/**
 * What the results screen and the dashboard say when the offline `local` provider made headshots (no OpenAI key
 * was set): they are composites of the customer's own photos, not AI headshots (issue 24, point 7; wording verbatim).
 */
export const OFFLINE_PREVIEW_NOTICE =
  'Offline preview: these are composites of your own photos. Set OPENAI_API_KEY for AI headshots.';

/**
 * {@link OFFLINE_PREVIEW_NOTICE} as a note, shown when any of `headshots` is a preview (the API's per-headshot
 * `preview`, so headshots made offline keep saying so after a key is set); nothing otherwise.
 */
export function PreviewNotice({
  headshots,
  className,
}: {
  headshots: readonly Pick<Headshot, 'preview'>[];
  className?: string;
}) {
  if (!headshots.some((headshot) => headshot.preview)) return null;
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
