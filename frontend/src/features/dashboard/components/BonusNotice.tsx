import { Gift } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';

/** Why an account started without the free credits, as `GET /api/me` says (`signupBonus`). */
export type WithheldBonus = 'already-claimed' | 'disposable-address';

/** The notice's texts, per reason (docs/architecture.md §2, the sign-up bonus). */
export const BONUS_NOTICE_TEXT = {
  'already-claimed': {
    title: 'Good to see you again',
    body: 'Free credits are a one-time welcome gift per person, and this e-mail address already received them with an earlier account, so this account starts with 0 credits. Everything else works just the same — pick a credit pack whenever you are ready.',
  },
  'disposable-address': {
    title: 'Free credits need a lasting e-mail address',
    body: 'This account was created with an address from a disposable e-mail service, so it starts with 0 credits instead of the 6 free credits. Sign up with your usual e-mail address to receive them, or pick a credit pack — everything else works just the same.',
  },
  action: 'See credit packs',
} as const;

/**
 * Shown on the dashboard to someone whose new account got no free credits — because an earlier account with the
 * same e-mail address (ignoring capitals, `+tags` and Gmail dots) already had them, or because the address is at a
 * disposable e-mail service — said kindly, with the way forward.
 */
export function BonusNotice({ reason }: { reason: WithheldBonus }) {
  return (
    <section
      aria-labelledby="bonus-notice-title"
      className="mt-6 flex flex-col gap-3 rounded-2xl border border-sky-200 bg-sky-50 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div className="flex items-start gap-3">
        <Gift aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-700" />
        <div>
          <h2 id="bonus-notice-title" className="text-sm font-semibold text-slate-900">
            {BONUS_NOTICE_TEXT[reason].title}
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-700">{BONUS_NOTICE_TEXT[reason].body}</p>
        </div>
      </div>
      <ButtonLink to={paths.pricing.href} variant="secondary" size="sm" className="shrink-0">
        {BONUS_NOTICE_TEXT.action}
      </ButtonLink>
    </section>
  );
}
