import { Gift } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';

/** The notice's texts. */
export const BONUS_NOTICE_TEXT = {
  title: 'Good to see you again',
  body: 'Free credits are a one-time welcome gift per person, and this e-mail address already received them with an earlier account, so this account starts with 0 credits. Everything else works just the same — pick a credit pack whenever you are ready.',
  action: 'See credit packs',
} as const;

/**
 * Shown on the dashboard to someone whose new account got no free credits because an earlier account with the same
 * e-mail address (ignoring capitals, `+tags` and Gmail dots) already had them — said kindly, with the way forward.
 */
export function BonusNotice() {
  return (
    <section
      aria-labelledby="bonus-notice-title"
      className="mt-6 flex flex-col gap-3 rounded-2xl border border-sky-200 bg-sky-50 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div className="flex items-start gap-3">
        <Gift aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-700" />
        <div>
          <h2 id="bonus-notice-title" className="text-sm font-semibold text-slate-900">
            {BONUS_NOTICE_TEXT.title}
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-700">{BONUS_NOTICE_TEXT.body}</p>
        </div>
      </div>
      <ButtonLink to={paths.pricing.href} variant="secondary" size="sm" className="shrink-0">
        {BONUS_NOTICE_TEXT.action}
      </ButtonLink>
    </section>
  );
}
