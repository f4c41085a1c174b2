import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { cx } from '../lib/cx';

/** Props of {@link RegenerateReason}. */
export interface RegenerateReasonProps {
  /** The id the Regenerate buttons name in `aria-describedby`. */
  id: string;
  /** Why Regenerate is unavailable (lib/api/regenerate-headshot) or why it was refused (the API's message). */
  message: string;
  /** `note`: unavailable, said calmly; `error`: a refusal, announced (`role="alert"`). */
  tone: 'note' | 'error';
  /** Follow the message with 'Buy credits' (/pricing): under 1 credit, or after a 402. */
  buyCredits: boolean;
  className?: string;
}

/**
 * The line beside "Regenerate (1 credit)" that says why it is unavailable or was refused, with a way to buy credits
 * when credits are the reason (issue 27: a tap on a phone never meets a silent disabled button). The results grid
 * and the gallery viewer show the same line.
 */
export function RegenerateReason({ id, message, tone, buyCredits, className }: RegenerateReasonProps) {
  return (
    <p
      id={id}
      role={tone === 'error' ? 'alert' : undefined}
      className={cx('text-sm', tone === 'error' ? 'font-medium text-red-700' : 'text-slate-600', className)}
      data-testid="regenerate-reason"
    >
      {message}{' '}
      {buyCredits && (
        <Link to={paths.pricing.href} className="font-semibold text-brand-700 underline underline-offset-4">
          Buy credits
        </Link>
      )}
    </p>
  );
}
