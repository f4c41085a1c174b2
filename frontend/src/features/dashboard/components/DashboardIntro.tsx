import { Sparkles } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { cx } from '../../../lib/cx';

/** The dashboard's opening texts, docs/product-spec.md §2 "Dashboard" verbatim. */
export const INTRO_TEXT = {
  /** Never 'Welcome back, !': without a name yet, the greeting has none. */
  welcome: (name: string) => (name ? `Welcome, ${name}!` : 'Welcome!'),
  welcomeBack: (name: string) => (name ? `Welcome back, ${name}!` : 'Welcome back!'),
  firstLine:
    'Create your first headshots: upload 5-10 photos of yourself, then choose a style and a background.',
  returningLine: 'Your AI headshots, ready to favorite and download in full resolution.',
  generate: 'Generate Headshots',
} as const;

/**
 * What the dashboard knows of the account's past: `new` (no headshot made, none being made), `returning` (some),
 * `loading` (the gallery's counts are on their way) or `unknown` (they could not be loaded).
 */
export type AccountHistory = 'new' | 'returning' | 'loading' | 'unknown';

/** Props of {@link DashboardIntro}. */
export interface DashboardIntroProps {
  /** The part of the e-mail before the @ ('' when unknown). */
  name: string;
  /** While `loading`, the greeting keeps its place without saying either; `unknown` says the neutral 'Welcome'. */
  history: AccountHistory;
}

/**
 * The top of the dashboard (issue 35 item 6): 'Welcome' for an account that has made nothing yet, 'Welcome back'
 * once it has, and the way to generate right beside it, so a phone (390×844) shows it without scrolling, above
 * the stats and the settings.
 */
export function DashboardIntro({ name, history }: DashboardIntroProps) {
  const greeting = history === 'returning' ? INTRO_TEXT.welcomeBack(name) : INTRO_TEXT.welcome(name);
  const loading = history === 'loading';
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
      <div className="min-w-0">
        {/* While the history is unknown the heading keeps its height but says nothing yet, so it never flips. */}
        <h1
          aria-busy={loading || undefined}
          className={cx(
            'font-display text-2xl font-bold tracking-tight text-balance break-words text-slate-900 sm:text-3xl',
            loading && 'invisible',
          )}
        >
          {greeting}
        </h1>
        <p className={cx('mt-2 text-slate-600', loading && 'invisible')}>
          {history === 'new' ? INTRO_TEXT.firstLine : INTRO_TEXT.returningLine}
        </p>
      </div>
      <ButtonLink
        to={paths.generator.href}
        size="lg"
        data-testid="dashboard-generate"
        className="w-full shrink-0 sm:w-auto"
      >
        <Sparkles aria-hidden="true" className="size-5" />
        {INTRO_TEXT.generate}
      </ButtonLink>
    </div>
  );
}
