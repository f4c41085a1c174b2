import { ArrowLeft, Check, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AppHeader } from '../../../components/AppHeader';
import { Button } from '../../../components/ui/Button';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { cx } from '../../../lib/cx';
import { CreditsBadge } from '../../../components/CreditsBadge';
import { teamHref } from '../../../config/paths';
import { TEAM_WIZARD_TEXT } from '../utils/team-look';
import { GENERATOR_TEXT, TOTAL_STEPS } from '../utils/content';

/** Short names of the four steps, for the step indicator. */
export const STEP_NAMES = ['Upload', 'Style', 'Background', 'Generate'] as const;

/** Props of {@link WizardHeader}. */
export interface WizardHeaderProps {
  /** 1-4. */
  step: number;
  /** Back: the previous step, or the landing page from step 1. */
  onBack: () => void;
  /** Back is unavailable (while a generation runs). */
  backDisabled?: boolean;
  /** Step 4: the generation's progress (0-100), which fills the last quarter of the bar. */
  generationPercent?: number;
  /** A team generation (issue 37): the team that pays shows instead of the credit count, linking to its page. */
  team?: { teamId: string; name: string } | undefined;
}

/**
 * The wizard's header (docs/product-spec.md §2): Back, the brand, the credit count (links to /pricing), then 'Step N of 4' with
 * the step's name, a progress bar and, from `sm` up, the four named steps.
 */
export function WizardHeader({
  step,
  onBack,
  backDisabled = false,
  generationPercent,
  team,
}: WizardHeaderProps) {
  // Steps 1-3 fill a quarter each; step 4 fills with the generation, so the bar never reads "done" while the body's
  // bar says 45 % (issue 27.6). The header shows no percent of its own: the body's is the one number.
  const current = step === TOTAL_STEPS && generationPercent !== undefined ? generationPercent / 100 : 1;
  const percent = Math.round(((step - 1 + current) / TOTAL_STEPS) * 100);
  return (
    <AppHeader
      width="narrow"
      navLabel="Account"
      nameClassName="hidden md:inline"
      leading={
        <Button
          variant="ghost"
          size="sm"
          className="px-2.5 sm:px-3"
          onClick={onBack}
          disabled={backDisabled}
          title={backDisabled ? 'Your headshots are being created' : undefined}
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back
        </Button>
      }
      below={
        <>
          <p className="text-sm font-semibold text-slate-900">
            {GENERATOR_TEXT.stepOf(step)}
            <span className="font-normal text-slate-500 sm:hidden"> · {STEP_NAMES[step - 1]}</span>
          </p>
          <ProgressBar
            label="Wizard progress"
            percent={percent}
            value={step}
            min={1}
            max={TOTAL_STEPS}
            valueText={GENERATOR_TEXT.stepOf(step)}
          />
          <ol className="mt-3 hidden grid-cols-4 gap-2 text-xs font-medium sm:grid">
            {STEP_NAMES.map((name, i) => {
              const n = i + 1;
              const done = n < step;
              const current = n === step;
              return (
                <li
                  key={name}
                  aria-current={current ? 'step' : undefined}
                  className={cx(
                    'flex items-center gap-2',
                    current ? 'text-brand-700' : done ? 'text-slate-700' : 'text-slate-500',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cx(
                      'flex size-5 shrink-0 items-center justify-center rounded-full text-[0.6875rem] font-semibold',
                      done && 'bg-brand-600 text-white',
                      current && 'bg-brand-100 text-brand-700 ring-1 ring-brand-300',
                      !done && !current && 'bg-slate-100 text-slate-500',
                    )}
                  >
                    {done ? <Check className="size-3" strokeWidth={3} /> : n}
                  </span>
                  {name}
                  {done && <span className="sr-only"> (done)</span>}
                </li>
              );
            })}
          </ol>
        </>
      }
    >
      {team ? (
        <Link
          to={teamHref(team.teamId)}
          title={TEAM_WIZARD_TEXT.paidBy(team.name)}
          data-testid="team-badge"
          className="inline-flex h-9 max-w-40 items-center gap-1.5 rounded-full bg-brand-50 px-3 text-sm font-semibold text-brand-800 ring-1 ring-brand-200 transition hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:max-w-60"
        >
          <Users aria-hidden="true" className="size-4 shrink-0" />
          <span className="truncate">
            <span className="sr-only">{TEAM_WIZARD_TEXT.paidBy('')}</span>
            {team.name}
          </span>
        </Link>
      ) : (
        <CreditsBadge />
      )}
    </AppHeader>
  );
}
