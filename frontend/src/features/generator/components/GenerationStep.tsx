import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Info, LayoutDashboard, RefreshCw, Sparkles } from 'lucide-react';
import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { GenerationProgressBar } from '../../../components/GenerationProgressBar';
import { ApiError } from '../../../lib/api-client';
import { meQueryKey, useMe } from '../../../lib/api/get-me';
import { HeadshotActions } from '../../../components/HeadshotActions';
import { HeadshotCard, PendingHeadshot } from '../../../components/HeadshotCard';
import { PreviewNotice } from '../../../components/PreviewNotice';
import { RegenerateReason } from '../../../components/RegenerateReason';
import { isFinished, type Generation, type Headshot } from '../../../lib/api/get-generation';
import {
  INITIAL_PROGRESS,
  useGenerationProgress,
  type GenerationProgress,
} from '../../../hooks/use-generation-progress';
import { useToggleFavorite } from '../../../hooks/use-toggle-favorite';
import { downloadHeadshot } from '../../../lib/download-headshot';
import { captionOf } from '../../../lib/headshot-caption';
import { HEADSHOTS_PER_GENERATION } from '../../../../../functions/domain/slots';
import { generationTime } from '../../../lib/generation-time';
import { GENERATOR_TEXT, LIKENESS_STOP_CODES } from '../utils/content';
import { LikenessNotice } from './LikenessNotice';
import { ResultHeading } from './StepLayout';
import { RegeneratedHeadshot } from './RegeneratedHeadshot';
import { regenerateUnavailable, useRegenerate } from '../../../lib/api/regenerate-headshot';
import { TEAM_REGENERATE_LABEL, teamEditUnavailable, useTeamPayer } from '../../../lib/team-headshot';
import { progressStatusText } from '../utils/wizard-rules';
import { track } from '../../../lib/analytics';
import { paths } from '../../../config/paths';
import { queryKeys } from '../../../lib/query-keys';

/** Props of {@link GenerationStep}. */
export interface GenerationStepProps {
  generationId: string;
  /** The generation failed (or vanished): the wizard goes back to step 3. `reason` is the server's message. */
  onFailed: (reason: string | null) => void;
  /** 'Generate More Headshots': back to step 1 with everything cleared. */
  onGenerateMore: () => void;
  /** 'Upload different photos' after the likeness cap stopped the generation: back to step 1, style kept. */
  onNewPhotos: () => void;
  /** What follows the delivered headshots (a team generation's 'Share with {team}', issue 37). */
  after?: (headshots: Headshot[]) => ReactNode;
}

/**
 * Step 4 (docs/product-spec.md §2, §4): while the generation runs, 'Generating your headshots', its time line from
 * the provider line's ETA (lib/generation-time.ts: 'Your headshots start in about N minutes' while it waits, else no
 * number), the percent bar and its status text, with the grid below filling in as each headshot is saved; when done, 'Your
 * headshots are ready!', the grid with an 'Actions' (⋯) menu under every headshot (favorite, download), and 'Generate More Headshots'.
 * A partial result says how many credits came back. On failure it hands over to the wizard (back to step 3) —
 * except when the likeness cap stopped it: then it stays, says why and asks for other photos (LikenessNotice).
 */
export function GenerationStep({
  generationId,
  onFailed,
  onGenerateMore,
  onNewPhotos,
  after,
}: GenerationStepProps) {
  const queryClient = useQueryClient();
  const { query, ...progress } = useGenerationProgress(generationId, BEFORE_FIRST_POLL);
  const generation = query.data;
  const status = generation?.status;
  const done = status === 'succeeded' || status === 'partial';
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  // The likeness cap stopped it: other photos are asked for, here, instead of generating again.
  const likenessStop =
    generation?.error && LIKENESS_STOP_CODES.has(generation.error.code) ? generation.error : null;
  const stoppedEmpty = status === 'failed' && likenessStop !== null;

  // Finishing is reported once per generation, whatever re-renders follow.
  const reported = useRef<string | null>(null);
  const delivered = generation?.headshots.length ?? 0;
  useEffect(() => {
    if (reported.current === generationId) return;
    if (!isFinished(status) && !notFound) return;
    reported.current = generationId;
    track('generation_finished', {
      status: notFound ? 'not_found' : (status ?? 'unknown'),
      headshots: delivered,
    });
    // Refunds (partial, failed) change the balance; new headshots belong in the gallery.
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
    void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
    if ((status === 'failed' && !stoppedEmpty) || notFound) onFailed(generation?.error?.message ?? null);
  }, [
    delivered,
    generation?.error?.message,
    generationId,
    notFound,
    onFailed,
    queryClient,
    status,
    stoppedEmpty,
  ]);

  const headshots = generation?.headshots ?? [];
  const expected = progress.expected;
  const statusText = done ? GENERATOR_TEXT.ready : progressStatusText(progress.percent);

  return (
    <section aria-labelledby="generation-title">
      {/* One polite live region: the status text as it changes, then the ready message. */}
      <p className="sr-only" role="status" aria-live="polite">
        {statusText}
      </p>

      {stoppedEmpty ? (
        <LikenessNotice variant="failed" message={likenessStop.message} onNewPhotos={onNewPhotos} />
      ) : done && generation ? (
        <ReadyHeader generation={generation} onNewPhotos={onNewPhotos} />
      ) : (
        <ProgressCard progress={progress} />
      )}

      <PreviewNotice headshots={headshots} className="mx-auto mt-6 max-w-2xl" />

      <ResultsGrid
        headshots={headshots}
        pendingSlots={done || stoppedEmpty ? 0 : Math.max(0, expected - headshots.length)}
        canRegenerate={done}
      />

      {done && after?.(headshots)}

      {done && (
        <div className="mt-10 flex flex-col items-stretch justify-center gap-3 border-t border-slate-200 pt-8 sm:flex-row sm:items-center">
          <Button size="lg" onClick={onGenerateMore}>
            <RefreshCw aria-hidden="true" className="size-5" />
            {GENERATOR_TEXT.generateMore}
          </Button>
          <ButtonLink to={paths.dashboard.href} variant="secondary" size="lg">
            <LayoutDashboard aria-hidden="true" className="size-5" />
            View all in dashboard
          </ButtonLink>
        </div>
      )}
    </section>
  );
}

/** What step 4 knows before the first poll answers: the credits are reserved, six headshots to come. */
const BEFORE_FIRST_POLL = { progress: INITIAL_PROGRESS, headshotsExpected: HEADSHOTS_PER_GENERATION };

function ProgressCard({ progress: { percent, waiting, saved, expected } }: { progress: GenerationProgress }) {
  const text = progressStatusText(percent);
  return (
    <div className="mx-auto max-w-2xl rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:p-10">
      <span className="relative mx-auto flex size-16 items-center justify-center">
        <span
          aria-hidden="true"
          className="absolute inset-0 animate-ping rounded-2xl bg-brand-200 opacity-40 motion-reduce:animate-none"
        />
        <span className="relative flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-brand-700 text-white shadow-lg shadow-brand-600/30">
          <Sparkles aria-hidden="true" className="size-8" />
        </span>
      </span>
      <h1
        id="generation-title"
        tabIndex={-1}
        className="mt-6 font-display text-2xl font-bold tracking-tight text-slate-900 outline-none sm:text-3xl"
      >
        {GENERATOR_TEXT.generatingTitle}
      </h1>
      <p className="mt-2 text-slate-600" data-testid="generation-time">
        {generationTime(waiting)}.
      </p>

      <div className="mt-8">
        <GenerationProgressBar
          percent={percent}
          label={
            <p className="font-medium text-slate-700" data-testid="generation-status">
              {text}
            </p>
          }
          valueText={`${percent}%: ${text}`}
          size="md"
        />
        {waiting ? (
          <div className="mt-4 rounded-2xl bg-brand-50 px-4 py-3 text-sm" data-testid="generation-queue">
            <p className="font-medium text-brand-900">
              {GENERATOR_TEXT.inLine(waiting.position - 1, waiting.etaSeconds)}
            </p>
            <p className="mt-1 text-brand-800">{GENERATOR_TEXT.mayClose}</p>
          </div>
        ) : (
          <p className="mt-3 text-sm text-slate-500">
            {saved > 0
              ? `${saved} of ${expected} headshots ready. They appear below as they are saved.`
              : GENERATOR_TEXT.keepOpen}
          </p>
        )}
      </div>
    </div>
  );
}

function ReadyHeader({ generation, onNewPhotos }: { generation: Generation; onNewPhotos: () => void }) {
  const delivered = generation.headshots.length;
  const refunded = generation.creditsRefunded;
  const likeness =
    generation.error && LIKENESS_STOP_CODES.has(generation.error.code) ? generation.error : null;
  return (
    <div className="text-center">
      <ResultHeading icon={CheckCircle2} tone="ready" size="lg">
        {GENERATOR_TEXT.ready}
      </ResultHeading>
      <p className="mt-3 text-base text-pretty text-slate-600">
        {delivered} {delivered === 1 ? 'headshot' : 'headshots'} · {captionOf(generation.style)} style ·{' '}
        {captionOf(generation.background)} background.
      </p>
      {generation.status === 'partial' && likeness && (
        <LikenessNotice variant="partial" message={likeness.message} onNewPhotos={onNewPhotos} />
      )}
      {generation.status === 'partial' && !likeness && (
        <p
          role="note"
          className="mx-auto mt-5 flex max-w-xl items-start gap-3 rounded-2xl bg-sky-50 p-4 text-left text-sm text-sky-900 ring-1 ring-sky-200"
        >
          <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-600" />
          <span>
            We could create {delivered} of {generation.headshotsExpected} headshots this time.{' '}
            <strong className="font-semibold">
              {refunded} {refunded === 1 ? 'credit was' : 'credits were'} refunded
            </strong>{' '}
            to your balance.
          </span>
        </p>
      )}
    </div>
  );
}

/**
 * The headshots grid: every saved headshot, then a placeholder per headshot still to come. Favorites are toggled
 * optimistically (`PATCH /api/headshots/{id}`) and rolled back with 'Failed to update favorite status' on error.
 */
function ResultsGrid({
  headshots,
  pendingSlots,
  canRegenerate,
}: {
  headshots: Headshot[];
  pendingSlots: number;
  /** Once the generation is done: each headshot offers "Regenerate (1 credit)". */
  canRegenerate: boolean;
}) {
  const { mutate: setFavorite } = useToggleFavorite('results');
  // Under 1 credit Regenerate is unavailable: the buttons stay, disabled, and one note above the grid says why.
  const credits = useMe().data?.credits;
  // A team generation's regenerations are paid from the member's team edits while they are one (team-payer.ts).
  const team = useTeamPayer(canRegenerate ? headshots[0]?.teamId : undefined);
  const teamPaid = team !== null;
  const unavailable = !canRegenerate
    ? null
    : teamPaid
      ? team
        ? teamEditUnavailable(team)
        : null
      : regenerateUnavailable(credits);
  const reasonId = useId();
  // Original headshot id → the one-slot generation regenerating it (its result is shown right after it).
  const [regenerations, setRegenerations] = useState<Record<string, string>>({});
  const regenerate = useRegenerate((headshotId, generationId) =>
    setRegenerations((current) => ({ ...current, [headshotId]: generationId })),
  );

  const download = async (headshot: Headshot) => {
    try {
      await downloadHeadshot(headshot, 'results');
    } catch {
      toast.error('Failed to download the headshot. Please try again.');
    }
  };
  const toggle = (headshot: Headshot) => setFavorite({ id: headshot.id, isFavorite: !headshot.isFavorite });

  // Grid positions (1-based): a regenerated headshot takes the place right after its original.
  const positions = new Map<string, number>();
  for (const headshot of headshots) {
    positions.set(headshot.id, positions.size + 1);
    if (regenerations[headshot.id]) positions.set(`${headshot.id}#new`, positions.size + 1);
  }

  if (headshots.length === 0 && pendingSlots === 0) return null;
  return (
    <>
      {unavailable && (
        <RegenerateReason
          id={reasonId}
          message={unavailable}
          tone="note"
          buyCredits={!teamPaid}
          className="mt-8 text-center text-pretty"
        />
      )}
      <ul
        aria-label="Your headshots"
        className="mt-10 grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-3"
        data-testid="headshot-grid"
      >
        {headshots.map((headshot) => {
          const regeneration = regenerations[headshot.id];
          return (
            <Fragment key={headshot.id}>
              <HeadshotCard
                headshot={headshot}
                placement="results"
                position={positions.get(headshot.id) ?? 0}
                actions={
                  <HeadshotActions headshot={headshot} onToggleFavorite={toggle} onDownload={download} />
                }
                onRegenerate={canRegenerate && !regeneration ? (h) => regenerate.mutate(h.id) : undefined}
                regenerating={regenerate.isPending && regenerate.variables === headshot.id}
                regenerateUnavailableId={unavailable ? reasonId : undefined}
                {...(teamPaid ? { regenerateLabel: TEAM_REGENERATE_LABEL } : {})}
              />
              {regeneration && (
                <RegeneratedHeadshot
                  generationId={regeneration}
                  position={positions.get(`${headshot.id}#new`) ?? 0}
                  onToggleFavorite={toggle}
                  onDownload={download}
                />
              )}
            </Fragment>
          );
        })}
        {Array.from({ length: pendingSlots }, (_, i) => (
          <PendingHeadshot key={`pending-${i}`} position={positions.size + i + 1} />
        ))}
      </ul>
    </>
  );
}
