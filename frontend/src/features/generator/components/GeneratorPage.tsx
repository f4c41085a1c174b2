import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import type { ApiError } from '../../../lib/api-client';
import { meQueryKey, useMe } from '../../../lib/api/get-me';
import {
  createGeneration,
  type CreatedGeneration,
  type CreateGenerationInput,
} from '../api/create-generation';
import { isFinished } from '../../../lib/api/get-generation';
import { BackgroundStep } from './BackgroundStep';
import {
  DEFAULT_OUTFIT_ID,
  GENERATOR_TEXT,
  type BackgroundId,
  type OutfitId,
  type StyleId,
} from '../utils/content';
import { insufficientCreditsToast, wizardCost } from '../utils/wizard-rules';
import { GenerationStep } from './GenerationStep';
import { StyleStep } from './StyleStep';
import { UploadStep } from './UploadStep';
import { generationQueryKey, useGenerationSnapshot } from '../../../hooks/use-generation';
import { usePhotoUploads } from '../hooks/use-photo-uploads';
import { usePhotoChecks } from '../hooks/use-photo-checks';
import { WizardHeader } from './WizardHeader';
import { LeaveGuard } from './LeaveGuard';
import { clearDraft, loadDraft, saveDraft } from '../utils/wizard-draft';
import { accountDraft } from '../utils/account-draft';
import { track } from '../../../lib/analytics';
import { paths } from '../../../config/paths';
import { forgetCheckoutReturn } from '../../../lib/checkout-return';
import { useWizardRoute, type WizardStep } from '../hooks/use-wizard-route';
import { ActiveGenerationNotice } from './ActiveGenerationNotice';
import { useGenerationPercent } from '../../../hooks/use-generation-progress';
import { useTeamWizard } from '../hooks/use-team-wizard';
import { backgroundFields, isColourKey, type TeamBackgroundKey } from '../utils/team-look';
import { TeamGate, TeamResults, TEAM_ERRORS, teamBackgroundProps, teamStyleProps } from './TeamWizardParts';

export type { WizardStep };

/** The furthest step the wizard's state allows: step 2 needs a photo, step 3 a style too. */
function reachableStep(photoCount: number, hasStyle: boolean): 1 | 2 | 3 {
  if (photoCount === 0) return 1;
  return hasStyle ? 3 : 2;
}

/** The quota a 429 answer names (`details.quota`), if it names one. */
function quotaOf(error: ApiError): string | undefined {
  const details = error.details as { quota?: unknown } | undefined;
  return typeof details?.quota === 'string' ? details.quota : undefined;
}

/** The balance a 402 answer reports (`details.credits`), if it has one. */
function creditsOf(error: ApiError): number | undefined {
  const details = error.details as { credits?: unknown } | undefined;
  return typeof details?.credits === 'number' ? details.credits : undefined;
}

/**
 * `/generator`, the four-step headshot wizard (docs/product-spec.md §2 "Generator wizard", §4, §5): upload photos →
 * choose a style → choose a background and generate (6 credits) → watch the progress and get the headshots. Steps
 * advance only by Continue and Generate, each a history entry (`?step=N`, step 4 `&generation=<id>`:
 * hooks/use-wizard-route.ts), so Back — the header's, the browser's, the phone's — goes one step back, or to the
 * landing page from step 1. The customer's running generation (`activeGeneration` of `GET /api/me`) opens on
 * arrival and is offered from steps 1-3, whatever tab or device started it; starting another meanwhile says so and
 * shows it. A failed generation returns to step 3 with the same choices; 'Generate More Headshots' starts over at
 * step 1 with everything cleared. Render it inside `RequireAuth`.
 */
export function GeneratorPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const route = useWizardRoute();
  // Everything chosen before leaving the wizard (to buy credits, say) comes back for this tab.
  const [draft] = useState(loadDraft);
  const uploads = usePhotoUploads(draft?.photos);
  const checks = usePhotoChecks(uploads.uploadedKeys);
  const [style, setStyle] = useState<StyleId | null>(draft?.style ?? null);
  const [background, setBackground] = useState<BackgroundId | null>(draft?.background ?? null);
  const [outfit, setOutfit] = useState<OutfitId>(draft?.outfit ?? DEFAULT_OUTFIT_ID);
  // A team's custom colour (issue 37): the background is then the studio preset in that colour.
  const [colour, setColour] = useState<string | null>(null);
  const { query: teamQuery, wizard: team } = useTeamWizard(route.teamId);
  // Within a team's look the choices are its own: a fixed list's only entry, nothing outside it.
  const held = team?.within({ style, background, colour, outfit });
  const chosenStyle = held ? held.style : style;
  const chosenOutfit = held ? held.outfit : outfit;
  const chosenBackground: TeamBackgroundKey | null = held ? held.background : background;
  const chooseBackground = useCallback((key: TeamBackgroundKey) => {
    setBackground(isColourKey(key) ? null : key);
    setColour(isColourKey(key) ? key : null);
  }, []);
  const chooseOutfit = useCallback((chosen: OutfitId) => {
    setOutfit(chosen);
    track('outfit_chosen', { outfit: chosen });
  }, []);
  const credits = me.data?.credits;
  // The customer's generation of 6 still running (in this tab or on another device): the wizard resumes it.
  const active = me.data?.activeGeneration;
  const running6 = active && active.regeneratedFrom === null ? active : null;

  // The step: the URL's (steps 1-3 no further than the photos and choices allow); a URL naming none shows the
  // draft's step, else step 1 — and the running generation as soon as `GET /api/me` names it (below).
  const reachable = reachableStep(uploads.uploadedKeys.length, chosenStyle !== null);
  let step: WizardStep;
  let generationId: string | null = null;
  if (route.step === 4) {
    step = 4;
    generationId = route.generationId;
  } else if (route.step !== null) step = Math.min(route.step, reachable) as WizardStep;
  else step = draft?.photos.length ? (Math.min(draft.step, reachable) as WizardStep) : 1;

  // The URL always names the step shown (a reload or the phone's Back then lands on it).
  const { replace: replaceRoute } = route;
  useEffect(() => {
    if (step !== route.step || (step === 4 && generationId !== route.generationId))
      replaceRoute(step, generationId ?? undefined);
  }, [step, generationId, route.step, route.generationId, replaceRoute]);

  // Opened without a step and without a draft (a link, "Generate New", another tab or device): the running
  // generation opens once the balance answer names it — unless the person has started choosing photos meanwhile.
  const arrival = useRef(route.step === null && !draft?.photos.length);
  const photosChosen = uploads.photos.length > 0;
  useEffect(() => {
    if (!arrival.current || me.isPending) return;
    arrival.current = false;
    if (running6 && !photosChosen && step === 1) replaceRoute(4, running6.id);
  }, [me.isPending, running6, photosChosen, step, replaceRoute]);

  // Back in the wizard: a purchase started from it has come back (see lib/checkout-return.ts).
  useEffect(() => forgetCheckoutReturn(), []);

  const generation = useGenerationSnapshot(step === 4 ? generationId : null);
  // The header's share of step 4 on step 4's terms: never behind what this tab showed, even right after a reload.
  const generationPercent = useGenerationPercent(step === 4 ? generationId : null);
  // The high-resolution option (12 credits): offered only when the server says the image model can make it.
  const [highResolution, setHighResolution] = useState(false);
  const highResolutionOn = highResolution && me.data?.highResolution === true;

  const create = useMutation<CreatedGeneration, ApiError, CreateGenerationInput>({
    mutationFn: createGeneration,
    onSuccess: (created, input) => {
      // The tab's draft stays until the headshots are delivered: a failure returns to step 3 with the same choices
      // (and keeps it with the account again). The account's goes now: the generation is under way.
      accountDraft.forget();
      team?.started(created.id);
      track('generation_started', {
        style: input.style,
        background: input.background,
        outfit: input.outfit ?? DEFAULT_OUTFIT_ID,
        photos: input.referenceKeys.length,
      });
      route.push(4, created.id);
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
    onError: (error) => {
      if (TEAM_ERRORS.has(error.code)) {
        // A team's refusal (no seats, allowance used, outside the look): its sentence, nothing spent.
        toast.error(error.message);
        return;
      }
      if (
        error.code === 'PHOTOS_DONT_MATCH' ||
        error.code === 'PHOTOS_REFUSED' ||
        error.code === 'MIXED_PEOPLE'
      ) {
        // These photos' headshots kept failing the likeness check, the image service kept refusing them, or they
        // show different people (issue 33: nothing spent): back to step 1 to choose others.
        toast.error(error.message);
        route.push(1);
        return;
      }
      if (error.status === 429 && quotaOf(error) === 'generations-in-flight') {
        // One generation at a time: say so and show the one running (maybe started in another tab or device).
        void me.refetch().then(({ data }) => {
          const running = data?.activeGeneration;
          if (running && running.regeneratedFrom === null) {
            toast.info(error.message);
            route.push(4, running.id);
          } else toast.error(error.message);
        });
        return;
      }
      if (error.status === 429 && quotaOf(error) === 'provider-line') {
        // The line is too long to finish in time (decision 019): nothing was spent, and the message says when to try
        // again. The wizard stays on step 3 with the same choices.
        toast.info(error.message);
        return;
      }
      if (error.status === 402) {
        toast.error(insufficientCreditsToast(creditsOf(error) ?? credits ?? 0, highResolutionOn));
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
        void navigate(paths.pricing.href);
        return;
      }
      toast.error(GENERATOR_TEXT.generationFailed, { description: error.message });
    },
  });

  const generate = () => {
    // Rejected photos are not used (the server checks every photo again and picks the best three).
    const referenceKeys = checks.usableKeys;
    // Spec §5: without a photo, a style and a background, Generate silently does nothing; photos of different people
    // (mixed_people) are refused by the server, and step 3 says why.
    if (
      !chosenStyle ||
      !chosenBackground ||
      referenceKeys.length === 0 ||
      checks.mixedPeople ||
      create.isPending
    )
      return;
    if (team) {
      create.mutate({
        style: chosenStyle,
        ...backgroundFields(chosenBackground),
        outfit: chosenOutfit,
        referenceKeys,
        teamId: team.team.teamId,
      });
      return;
    }
    if (!background) return;
    if (credits !== undefined && credits < wizardCost(highResolutionOn)) {
      toast.error(insufficientCreditsToast(credits, highResolutionOn));
      void navigate(paths.pricing.href);
      return;
    }
    create.mutate({
      style: chosenStyle,
      background,
      outfit,
      referenceKeys,
      ...(highResolutionOn ? { resolution: 'high' as const } : {}),
    });
  };

  const { reset: resetCreate } = create;
  const { backTo, push } = route;
  const onFailed = useCallback(
    (reason: string | null) => {
      toast.error(GENERATOR_TEXT.generationFailed, reason ? { description: reason } : undefined);
      resetCreate();
      backTo(3);
    },
    [resetCreate, backTo],
  );

  const generateMore = useCallback(() => {
    if (generationId) queryClient.removeQueries({ queryKey: generationQueryKey(generationId) });
    clearDraft();
    uploads.clear();
    setStyle(null);
    setBackground(null);
    setColour(null);
    setOutfit(DEFAULT_OUTFIT_ID);
    resetCreate();
    // A team's one generation is made: more headshots are the customer's own.
    if (route.teamId) void navigate(paths.generator.href);
    else push(1);
  }, [generationId, queryClient, resetCreate, uploads, push, route.teamId, navigate]);

  // After the likeness cap stopped a generation: other photos, the same style and background.
  const newPhotos = useCallback(() => {
    if (generationId) queryClient.removeQueries({ queryKey: generationQueryKey(generationId) });
    clearDraft();
    uploads.clear();
    resetCreate();
    push(1);
  }, [generationId, queryClient, resetCreate, uploads, push]);

  // Delivered: the draft has served its purpose (Back from the results still shows the choices, in this page).
  const delivered = generation?.status === 'succeeded' || generation?.status === 'partial';
  useEffect(() => {
    if (delivered) clearDraft();
  }, [delivered]);

  const running = step === 4 && !isFinished(generation?.status);
  const back = () => {
    if (step === 1) {
      void navigate(paths.home.href);
      return;
    }
    if (step === 4) resetCreate();
    backTo((step - 1) as WizardStep);
  };

  const { photos } = uploads;
  useEffect(() => {
    if (step > 3) return;
    // A team's colour is not a preset: the draft keeps the other choices (a fixed colour comes back by itself).
    const draft = {
      step: step as 1 | 2 | 3,
      style: chosenStyle,
      background: chosenBackground && !isColourKey(chosenBackground) ? chosenBackground : null,
      outfit: chosenOutfit,
      photos,
    };
    saveDraft(draft);
    accountDraft.keep(draft);
  }, [step, chosenStyle, chosenBackground, chosenOutfit, photos]);

  const { clear: clearPhotos } = uploads;
  const discard = useCallback(() => {
    clearDraft();
    accountDraft.forget();
    clearPhotos();
  }, [clearPhotos]);

  // A new step starts at the top, with focus on its heading (not on the first render: the page just opened).
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    window.scrollTo({ top: 0 });
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, [step]);

  const showActive = step <= 3 && running6 !== null;
  if (route.teamId && !team) return <TeamGate query={teamQuery} />;
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>Create headshots · Headshot Studio</title>
      <WizardHeader
        step={step}
        onBack={back}
        backDisabled={running}
        generationPercent={step === 4 ? generationPercent : undefined}
        team={team ? { teamId: team.team.teamId, name: team.team.name } : undefined}
      />
      {step <= 3 && <LeaveGuard photoCount={uploads.uploadedKeys.length} onDiscard={discard} />}
      <main className="relative flex-1">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-80 bg-[radial-gradient(60%_60%_at_50%_0%,var(--color-brand-100),transparent)] opacity-70"
        />
        <div className="relative mx-auto w-full max-w-6xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12 sm:pb-24 lg:px-8">
          {showActive && running6 && (
            <ActiveGenerationNotice progress={running6.progress} onView={() => push(4, running6.id)} />
          )}
          {step === 1 && <UploadStep uploads={uploads} checks={checks} onContinue={() => push(2)} />}
          {step === 2 && (
            <StyleStep
              value={chosenStyle}
              onChange={setStyle}
              outfit={chosenOutfit}
              onOutfitChange={chooseOutfit}
              onContinue={() => push(3)}
              {...(team ? { team: teamStyleProps(team) } : {})}
            />
          )}
          {step === 3 && (
            <BackgroundStep<TeamBackgroundKey>
              value={chosenBackground}
              onChange={chooseBackground}
              {...(team ? teamBackgroundProps(team) : {})}
              style={chosenStyle}
              photoCount={checks.usableKeys.length}
              credits={credits}
              generating={create.isPending}
              onGenerate={generate}
              onRetryCredits={me.isError ? () => void me.refetch() : undefined}
              mixedPeople={checks.mixedPeople}
              onChangePhotos={() => push(1)}
              {...(me.data?.highResolution && !team
                ? { highResolution: { on: highResolution, onChange: setHighResolution } }
                : {})}
            />
          )}
          {step === 4 && generationId && (
            <GenerationStep
              key={generationId}
              generationId={generationId}
              onFailed={onFailed}
              onGenerateMore={generateMore}
              onNewPhotos={newPhotos}
              {...(team
                ? { after: (headshots) => <TeamResults team={team.team} headshots={headshots} /> }
                : {})}
            />
          )}
        </div>
      </main>
    </div>
  );
}
