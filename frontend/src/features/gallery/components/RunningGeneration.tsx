import { useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { ButtonLink } from '../../../components/ui/Button';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { generationHref } from '../../../config/paths';
import { useGeneration } from '../../../hooks/use-generation';
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
  const { data } = useGeneration(active.id);
  const finished = isFinished(data?.status);
  const ended = useRef(false);
  useEffect(() => {
    if (!finished || ended.current) return;
    ended.current = true;
    void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [finished, queryClient]);
  if (finished) return null;

  const percent = Math.min(100, Math.max(0, Math.round(data?.progress ?? active.progress)));
  const expected = data?.headshotsExpected ?? active.headshotsExpected;
  const saved = data?.headshots.length ?? 0;
  const queue = data?.queue && data.queue.position > 0 ? data.queue : null;
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
        <div className="flex items-baseline justify-between gap-3">
          <h2 id="running-generation-title" className="font-semibold text-slate-900">
            {RUNNING_TEXT.title(expected)}
          </h2>
          <p className="text-sm font-semibold text-brand-700 tabular-nums">{percent}%</p>
        </div>
        <ProgressBar
          label="Generation progress"
          percent={percent}
          value={percent}
          min={0}
          max={100}
          valueText={`${percent}%`}
        />
        <p className="mt-2 text-sm text-slate-600" role="status">
          {queue ? RUNNING_TEXT.inLine(queue.position - 1) : RUNNING_TEXT.saved(saved, expected)}
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
