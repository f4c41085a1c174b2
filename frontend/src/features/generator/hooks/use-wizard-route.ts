import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';

/** The wizard's steps: upload, style, background, generate. */
export type WizardStep = 1 | 2 | 3 | 4;

/** The query parameters of the wizard's URL: `/generator?step=3`, `/generator?step=4&generation=<id>`. */
export const STEP_PARAM = 'step';
export const GENERATION_PARAM = 'generation';
/** The team a team generation is started for (issue 37): `/generator?team=<teamId>&step=2`. */
export const TEAM_PARAM = 'team';

/** What the router keeps with a step's history entry: the step it was reached from (Back returns there). */
interface StepState {
  wizardFrom?: number;
}

/** The step and generation a wizard URL names; either is null when absent or not valid. */
export function parseWizardSearch(search: URLSearchParams): {
  step: WizardStep | null;
  generationId: string | null;
} {
  const raw = Number(search.get(STEP_PARAM));
  const step = [1, 2, 3, 4].includes(raw) ? (raw as WizardStep) : null;
  const generationId = search.get(GENERATION_PARAM)?.trim() || null;
  // Step 4 is a generation's page: without one it names nothing.
  if (step === 4 && !generationId) return { step: null, generationId: null };
  return { step, generationId: step === 4 ? generationId : null };
}

/** The team a wizard URL is for, or null for the customer's own generation. */
export function teamOfSearch(search: URLSearchParams): string | null {
  return search.get(TEAM_PARAM)?.trim() || null;
}

/** The wizard's URL for `step` (and, on step 4, its generation), for `teamId`'s generation when given. */
export function wizardHref(step: WizardStep, generationId?: string, teamId?: string | null): string {
  const search = new URLSearchParams();
  if (teamId) search.set(TEAM_PARAM, teamId);
  search.set(STEP_PARAM, String(step));
  if (step === 4 && generationId) search.set(GENERATION_PARAM, generationId);
  return `${paths.generator.href}?${search.toString()}`;
}

/** What {@link useWizardRoute} returns. */
export interface WizardRoute {
  /** The step in the URL, or null when it names none (the wizard then decides: draft, running generation, step 1). */
  step: WizardStep | null;
  /** Step 4's generation, from the URL. */
  generationId: string | null;
  /** The team the wizard generates for (issue 37), kept in every step's URL; null for the customer's own. */
  teamId: string | null;
  /** A new history entry for `step` (Continue, Generate): the phone's Back then returns to the step before. */
  push: (step: WizardStep, generationId?: string) => void;
  /** Shows `step` in place of the current entry (a correction, not a move the person made). */
  replace: (step: WizardStep, generationId?: string) => void;
  /**
   * Back to `step`: through history when the current entry was reached from it (so the entries stay one per step),
   * else in place of the current entry.
   */
  backTo: (step: WizardStep) => void;
}

/**
 * The wizard's step lives in the URL (issue 27 "Navigation people expect"): one history entry per step, so the
 * browser's and the phone's Back go one step back, a reload stays on the step, and step 4 carries its generation's
 * id, so a reload (or a link from the dashboard) shows that generation's progress and then its results.
 */
export function useWizardRoute(): WizardRoute {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { step, generationId } = parseWizardSearch(search);
  const teamId = teamOfSearch(search);
  const from = (location.state as StepState | null)?.wizardFrom;

  const push = useCallback(
    (next: WizardStep, id?: string) =>
      void navigate(wizardHref(next, id, teamId), {
        state: { wizardFrom: step ?? undefined } satisfies StepState,
      }),
    [navigate, step, teamId],
  );
  const replace = useCallback(
    (next: WizardStep, id?: string) =>
      void navigate(wizardHref(next, id, teamId), { replace: true, state: location.state as unknown }),
    [navigate, location.state, teamId],
  );
  const backTo = useCallback(
    (previous: WizardStep) => {
      if (from === previous) void navigate(-1);
      else void navigate(wizardHref(previous, undefined, teamId), { replace: true });
    },
    [from, navigate, teamId],
  );
  return { step, generationId, teamId, push, replace, backTo };
}
