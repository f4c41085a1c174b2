import { Mail } from 'lucide-react';
import type { Me } from '../../../lib/api/contracts';
import { cx } from '../../../lib/cx';
import { useUpdateEmailWhenReady } from '../api/update-preferences';

/** The toggle's texts. */
export const EMAIL_TOGGLE_TEXT = {
  label: 'E-mail me when my headshots are ready',
  hint: 'One e-mail per generation, also when some credits were refunded.',
  failed: "We couldn't save your e-mail preference. Please try again.",
} as const;

/**
 * "E-mail me when my headshots are ready": a switch on the dashboard, on by default, stored on the user
 * (`PATCH /api/me`). The switch moves at once and goes back with a toast if the API refuses.
 */
export function EmailToggle({ me }: { me: Me | undefined }) {
  const on = me?.emailWhenReady ?? true;
  const mutation = useUpdateEmailWhenReady(EMAIL_TOGGLE_TEXT.failed);
  return (
    <div className="mt-12 flex items-center justify-between gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex items-start gap-3">
        <Mail aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600" />
        <div>
          <p id="email-toggle-label" className="text-sm font-semibold text-slate-900">
            {EMAIL_TOGGLE_TEXT.label}
          </p>
          <p className="mt-0.5 text-sm text-slate-600">{EMAIL_TOGGLE_TEXT.hint}</p>
        </div>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby="email-toggle-label"
        disabled={!me}
        onClick={() => mutation.mutate(!on)}
        className={cx(
          'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50',
          on ? 'bg-brand-600' : 'bg-slate-300',
        )}
      >
        <span
          aria-hidden="true"
          className={cx(
            'inline-block size-5 rounded-full bg-white shadow transition-transform motion-reduce:transition-none',
            on ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </button>
    </div>
  );
}
