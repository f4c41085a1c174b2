import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { AppHeader } from '../../../components/AppHeader';
import { CreditsBadge } from '../../../components/CreditsBadge';
import { SignOutButton } from '../../../components/SignOutButton';
import { ButtonLink } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { cx } from '../../../lib/cx';
import { TEAMS_TEXT } from '../utils/text';

/** The classes of a text field on the team screens: 44 px high (a thumb's target), full width on a phone. */
export const FIELD_CLASSES =
  'block h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm ' +
  'focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 sm:text-sm';

/**
 * The frame of every team screen signed in: the header (back to the dashboard, the credit count, sign out) and the
 * page's column with its `<title>`.
 */
export function TeamFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`${title} · Headshot Studio`}</title>
      <AppHeader
        navLabel="Account"
        nameClassName="hidden lg:inline"
        leading={
          <ButtonLink to={paths.dashboard.href} variant="ghost" size="sm" className="px-2.5 sm:px-3">
            <ArrowLeft aria-hidden="true" className="size-4" />
            {TEAMS_TEXT.back}
          </ButtonLink>
        }
      >
        <CreditsBadge className="px-3 sm:px-3.5" />
        <SignOutButton className="px-2.5 sm:px-3" />
      </AppHeader>
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 pt-8 pb-16 sm:px-6 sm:pt-10 lg:px-8">
        {children}
      </main>
    </div>
  );
}

/** One part of a team's page: a white card headed by an `<h2>` (with an icon), its id naming the section. */
export function Panel({
  id,
  icon: Icon,
  title,
  children,
  className,
  action,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  className?: string;
  /** A control beside the heading (e.g. 'Download ZIP'). */
  action?: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cx('mt-6 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6', className)}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Icon aria-hidden="true" className="size-5 text-brand-600" />
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** A problem loading or doing something, with the API's sentence and an optional retry. */
export function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <p role="alert" className="mt-3 text-sm text-red-700">
      {message}{' '}
      {onRetry && (
        <button type="button" className="font-semibold text-brand-700 underline" onClick={onRetry}>
          {TEAMS_TEXT.retry}
        </button>
      )}
    </p>
  );
}
