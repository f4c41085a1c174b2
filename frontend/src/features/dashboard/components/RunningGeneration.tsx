import { useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { ButtonLink } from '../../../components/ui/Button';
import { GenerationProgressBar } from '../../../components/GenerationProgressBar';
import { generationHref } from '../../../config/paths';
import { useGenerationProgress } from '../../../hooks/use-generation-progress';
import type { ActiveGeneration } from '../../../lib/api/contracts';
import { isFinished } from '../../../lib/api/get-generation';
import { meQueryKey } from '../../../lib/api/get-me';
import { queryKeys } from '../../../lib/query-keys';

/** The dashboard's texts for a generation still running (issue 27 "Resume anywhere"). */
export const RUNNING_TEXT = {
  title: (expected: number) =>
    expected === 1 ? 'Creating 1 new headshot' : `Creating your ${expected} headshots`,
  inLine: (ahead: number) =>
    ahead <= 0
      ? "You're next in line."
      : `In line: ${ahead} ${ahead === 1 ? 'generation' : 'generations'} ahead of you.`,
  saved: (saved: number, expected: number) => `${saved} of ${expected} ready.`,
  view: 'See progress',
} as const;

/**
 * The customer's running generation on the dashboard (`activeGeneration` of `GET /api/me`, whatever tab or device
 * started it): its progress and place in line, polled like the wizard's step 4, and a way to the wizard's progress
 * page. When it ends, the gallery and the balance are fetched again, so its headshots (and any refund) show at once.
 */
export function RunningGeneration({ active }: { active: ActiveGeneration }) {
  const queryClient = useQueryClient();
  // Before the first poll answers: what `GET /api/me` said of it.
  const { query, percent, waiting, saved, expected } = useGenerationProgress(active.id, active);
  const finished = isFinished(query.data?.status);
  const ended = useRef(false);
  useEffect(() => {
    if (!finished || ended.current) return;
    ended.current = true;
    void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [finished, queryClient]);
  if (finished) return null;

  return (
    <section
      aria-labelledby="running-generation-title"
      data-testid="running-generation"
      className="mt-6 flex flex-col gap-4 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-brand-100 sm:flex-row sm:items-center sm:gap-6 sm:p-6"
    >
      <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-brand-700 text-white">
        <Sparkles aria-hidden="true" className="size-6" />
      </span>
      <div className="min-w-0 flex-1">
        <GenerationProgressBar
          percent={percent}
          label={
            <h2 id="running-generation-title" className="font-semibold text-slate-900">
              {RUNNING_TEXT.title(expected)}
            </h2>
          }
        />
        <p className="mt-2 text-sm text-slate-600" role="status">
          {waiting ? RUNNING_TEXT.inLine(waiting.position - 1) : RUNNING_TEXT.saved(saved, expected)}
        </p>
      </div>
      {active.regeneratedFrom === null && (
        <ButtonLink to={generationHref(active.id)} variant="secondary" size="sm" className="shrink-0">
          {RUNNING_TEXT.view}
        </ButtonLink>
      )}
    </section>
  );
}
