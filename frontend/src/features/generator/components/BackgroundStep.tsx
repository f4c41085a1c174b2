import { AlertTriangle, Gem, ImageUp, Images, Palette, Sparkles, UserRoundX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { rememberWizardForCheckout } from '../../../lib/checkout-return';
import { Button } from '../../../components/ui/Button';
import { CreditsRetry } from '../../../components/CreditsRetry';
import { Skeleton } from '../../../components/ui/Skeleton';
import { cx } from '../../../lib/cx';
import { HEADSHOTS_PER_GENERATION } from '../../../../../functions/domain/slots';
import { generationTime } from '../../../lib/generation-time';
import {
  BACKGROUND_CHOICE,
  BACKGROUND_OPTIONS,
  GENERATOR_TEXT,
  STYLE_OPTIONS,
  type BackgroundId,
  type StyleId,
  type WizardOption,
} from '../utils/content';
import { ChoiceStep } from './ChoiceStep';
import { HighResolutionOption } from './HighResolutionOption';
import { StepFooter } from './StepLayout';
import { generateControls, wizardCost } from '../utils/wizard-rules';
import { TeamCard, teamControls, type TeamPayer } from './TeamCard';
import { paths } from '../../../config/paths';

/** The low-credit links' shape; each adds its own colours (orange, docs/product-spec.md §2 step 3). */
const ORANGE_BUTTON =
  'inline-flex h-9 items-center justify-center gap-2 rounded-full px-4 text-sm font-semibold whitespace-nowrap ' +
  'shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600';

/** Props of {@link BackgroundStep}. */
export interface BackgroundStepProps<Id extends string = BackgroundId> {
  value: Id | null;
  onChange: (background: Id) => void;
  /** The backgrounds offered (a team's look, issue 37: its presets and colours); default: the four presets. */
  options?: readonly WizardOption<Id>[];
  /** A line under the heading: 'Set by your team' when a team's look fixes the background. */
  note?: ReactNode;
  /** The team paying (issue 37): its allowance replaces the credits card, and no credit figure shows. */
  team?: TeamPayer;
  style: StyleId | null;
  /** Photos the generation would use: the uploaded ones the photo check did not reject. */
  photoCount: number;
  /** The balance, `undefined` while it loads. */
  credits: number | undefined;
  /** A generation is being started. */
  generating: boolean;
  onGenerate: () => void;
  /** Set when `GET /api/me` failed: the credits card offers a retry instead of a skeleton. */
  onRetryCredits?: () => void;
  /** The high-resolution option, when the server offers it (`GET /api/me` `highResolution`). */
  highResolution?: { on: boolean; onChange: (on: boolean) => void };
  /**
   * The photo check's `mixed_people` sentence while the photos show different people (none a majority), else null:
   * Generate waits and the sentence shows above it with {@link BackgroundStepProps.onChangePhotos}.
   */
  mixedPeople?: string | null;
  /** Back to step 1 to remove the photos that aren't the customer. */
  onChangePhotos?: () => void;
}

/**
 * Step 3 'Choose your background' (docs/product-spec.md §2): the four background cards, a summary of the choices (the
 * photos the check did not reject), the credits card (orange with 'Running low on credits!' and Buy More under 6
 * credits), the notice 'You need 6 credits to generate headshots, but you only have N.' with Buy More Credits, and the
 * generate button with its three labels. Every credit figure is the chosen resolution's cost (wizard-rules
 * wizardCost), so the card, the notice and the button agree. While the
 * photos show different people (`mixed_people`, issue 33) the button is disabled and the check's sentence stands
 * above it with 'Change photos'.
 */
export function BackgroundStep<Id extends string = BackgroundId>({
  value,
  onChange,
  options,
  note,
  team,
  style,
  photoCount,
  credits,
  generating,
  onGenerate,
  onRetryCredits,
  highResolution,
  mixedPeople = null,
  onChangePhotos,
}: BackgroundStepProps<Id>) {
  const controls = team
    ? teamControls(team, { hasBackground: value !== null, generating, mixedPeople: mixedPeople !== null })
    : generateControls({
        credits,
        hasBackground: value !== null,
        generating,
        highResolution: highResolution?.on,
        mixedPeople: mixedPeople !== null,
      });
  const cards: readonly WizardOption<Id>[] =
    options ?? (BACKGROUND_OPTIONS as unknown as readonly WizardOption<Id>[]);
  const styleTitle = STYLE_OPTIONS.find((s) => s.id === style)?.title ?? '—';
  const chosen = cards.find((b) => b.id === value);
  const backgroundTitle = chosen ? (chosen.swatch ?? chosen.title) : 'Not chosen yet';

  return (
    <ChoiceStep {...BACKGROUND_CHOICE} options={cards} note={note} value={value} onChange={onChange}>
      <div className="mt-8 grid gap-4 sm:gap-5 md:grid-cols-2">
        <div className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h2 className="text-sm font-semibold text-slate-900">Your headshots</h2>
          <dl className="mt-4 grid grid-cols-3 gap-3 text-sm">
            <Summary icon={Images} term="Photos" value={String(photoCount)} />
            <Summary icon={Sparkles} term="Style" value={styleTitle} />
            <Summary icon={Palette} term="Background" value={backgroundTitle} muted={value === null} />
          </dl>
          <p className="mt-4 border-t border-slate-100 pt-4 text-sm text-slate-600">
            You get {HEADSHOTS_PER_GENERATION} headshots, each as a 1024×1024 square, a 4:5 portrait and the
            original PNG as it was generated. {generationTime()}.
          </p>
          {highResolution && !team && <HighResolutionOption {...highResolution} />}
        </div>
        {team ? (
          <TeamCard team={team} />
        ) : (
          <CreditsCard
            credits={credits}
            cost={wizardCost(highResolution?.on)}
            low={controls.lowCredits}
            onRetryCredits={onRetryCredits}
          />
        )}
      </div>

      {controls.notice && (
        <div
          role="alert"
          className="mt-4 flex flex-col gap-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between sm:p-5"
        >
          <p className="flex gap-3">
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
            <span className="font-medium">{controls.notice}</span>
          </p>
          {!team && (
            <Link
              to={paths.pricing.href}
              onClick={rememberWizardForCheckout}
              className={cx(ORANGE_BUTTON, 'shrink-0 bg-orange-600 text-white hover:bg-orange-700')}
            >
              {GENERATOR_TEXT.buyMoreCredits}
            </Link>
          )}
        </div>
      )}

      {mixedPeople && (
        <div
          role="alert"
          data-testid="mixed-people-notice"
          className="mt-4 flex flex-col gap-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between sm:p-5"
        >
          <p className="flex gap-3">
            <UserRoundX aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
            <span className="font-medium">{mixedPeople}</span>
          </p>
          {onChangePhotos && (
            <Button variant="secondary" size="sm" onClick={onChangePhotos} className="shrink-0">
              <ImageUp aria-hidden="true" className="size-4" />
              {GENERATOR_TEXT.changePhotos}
            </Button>
          )}
        </div>
      )}

      <StepFooter hint={value ? undefined : 'Choose a background to generate.'}>
        <Button
          size="lg"
          disabled={controls.disabled}
          loading={generating}
          onClick={onGenerate}
          className="w-full sm:w-auto"
        >
          {!generating && <Sparkles aria-hidden="true" className="size-5" />}
          {controls.label}
        </Button>
      </StepFooter>
    </ChoiceStep>
  );
}

function Summary({
  icon: Icon,
  term,
  value,
  muted = false,
}: {
  icon: typeof Images;
  term: string;
  value: string;
  muted?: boolean;
}) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-500">
        <Icon aria-hidden="true" className="size-3.5" />
        {term}
      </dt>
      {/* Wraps instead of truncating: 'Not chosen yet' and 'Business Casual' read whole in a 390 px column. */}
      <dd className={cx('mt-1 font-semibold break-words', muted ? 'text-slate-500' : 'text-slate-900')}>
        {value}
      </dd>
    </div>
  );
}

/**
 * The balance, orange with 'Running low on credits!' ('No credits left' at 0) and Buy More when under 6
 * (docs/product-spec.md §2 step 3).
 */
function CreditsCard({
  credits,
  cost,
  low,
  onRetryCredits,
}: {
  credits: number | undefined;
  /** What the generation costs (wizard-rules wizardCost): the same figure as the button's. */
  cost: number;
  low: boolean;
  /** Set when `GET /api/me` failed: a retry replaces the skeleton. */
  onRetryCredits?: () => void;
}) {
  return (
    <div
      data-testid="credits-card"
      data-low={low || undefined}
      className={cx(
        'flex flex-col justify-between gap-4 rounded-3xl p-5 shadow-sm ring-1 sm:p-6',
        low ? 'bg-orange-50 ring-orange-200' : 'bg-white ring-slate-200',
      )}
    >
      <div className="flex items-start gap-4">
        <span
          aria-hidden="true"
          className={cx(
            'flex size-11 shrink-0 items-center justify-center rounded-2xl',
            low ? 'bg-orange-100 text-orange-600' : 'bg-brand-50 text-brand-600',
          )}
        >
          <Gem className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 className={cx('text-sm font-semibold', low ? 'text-orange-900' : 'text-slate-900')}>
            Your credits
          </h2>
          {credits === undefined && onRetryCredits ? (
            <CreditsRetry className="mt-1.5" onRetry={onRetryCredits} />
          ) : credits === undefined ? (
            <Skeleton className="mt-1.5 h-7 w-24" />
          ) : (
            <p
              className={cx(
                'mt-0.5 text-2xl font-bold tracking-tight tabular-nums',
                low ? 'text-orange-700' : 'text-slate-900',
              )}
            >
              {credits} {credits === 1 ? 'credit' : 'credits'}
            </p>
          )}
          <p className={cx('mt-1 text-sm', low ? 'font-medium text-orange-800' : 'text-slate-600')}>
            {!low
              ? GENERATOR_TEXT.generationUses(cost)
              : credits === 0
                ? GENERATOR_TEXT.noCredits
                : GENERATOR_TEXT.runningLow}
          </p>
        </div>
      </div>
      {low && (
        <Link
          to={paths.pricing.href}
          onClick={rememberWizardForCheckout}
          className={cx(
            ORANGE_BUTTON,
            'self-start bg-white text-orange-700 ring-1 ring-orange-300 ring-inset hover:bg-orange-100',
          )}
        >
          {GENERATOR_TEXT.buyMore}
        </Link>
      )}
    </div>
  );
}
