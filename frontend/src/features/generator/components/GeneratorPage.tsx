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
import { GENERATION_COST, GENERATOR_TEXT, type BackgroundId, type StyleId } from '../utils/content';
import { GenerationStep } from './GenerationStep';
import { StyleStep } from './StyleStep';
import { UploadStep } from './UploadStep';
import { generationQueryKey, useGenerationSnapshot } from '../../../hooks/use-generation';
import { usePhotoUploads } from '../hooks/use-photo-uploads';
import { usePhotoChecks } from '../hooks/use-photo-checks';
import { WizardHeader } from './WizardHeader';
import { LeaveGuard } from './LeaveGuard';
import { clearDraft, loadDraft, saveDraft } from '../utils/wizard-draft';
import { track } from '../../../lib/analytics';
import { paths } from '../../../config/paths';

/** The wizard's steps: upload, style, background, generate. */
export type WizardStep = 1 | 2 | 3 | 4;

/** The balance a 402 answer reports (`details.credits`), if it has one. */
function creditsOf(error: ApiError): number | undefined {
  const details = error.details as { credits?: unknown } | undefined;
  return typeof details?.credits === 'number' ? details.credits : undefined;
}

/**
 * `/generator`, the four-step headshot wizard (docs/product-spec.md §2 "Generator wizard", §4, §5): upload photos → choose a style →
 * choose a background and generate (6 credits) → watch the progress and get the headshots. Steps advance only by
 * Continue and Generate; Back goes one step back, or to the landing page from step 1. A failed generation returns
 * to step 3 with the progress reset; 'Generate More Headshots' starts over at step 1 with everything cleared.
 * Render it inside `RequireAuth`.
 */
export function GeneratorPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  // Everything chosen before leaving the wizard (to buy credits, say) comes back for this tab.
  const [draft] = useState(loadDraft);
  const uploads = usePhotoUploads(draft?.photos);
  const checks = usePhotoChecks(uploads.uploadedKeys);
  const [step, setStep] = useState<WizardStep>(draft?.photos.length ? draft.step : 1);
  const [style, setStyle] = useState<StyleId | null>(draft?.style ?? null);
  const [background, setBackground] = useState<BackgroundId | null>(draft?.background ?? null);
  const [generationId, setGenerationId] = useState<string | null>(null);
  const generation = useGenerationSnapshot(generationId);
  const credits = me.data?.credits;

  const create = useMutation<CreatedGeneration, ApiError, CreateGenerationInput>({
    mutationFn: createGeneration,
    onSuccess: (created, input) => {
      clearDraft();
      track('generation_started', {
        style: input.style,
        background: input.background,
        photos: input.referenceKeys.length,
      });
      setGenerationId(created.id);
      setStep(4);
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
    onError: (error) => {
      if (error.code === 'PHOTOS_DONT_MATCH') {
        // These photos' headshots kept failing the likeness check: back to step 1 to choose others.
        toast.error(error.message);
        setStep(1);
        return;
      }
      if (error.status === 402) {
        toast.error(GENERATOR_TEXT.insufficientToast(creditsOf(error) ?? credits ?? 0));
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
    // Spec §5: without a photo, a style and a background, Generate silently does nothing.
    if (!style || !background || referenceKeys.length === 0 || create.isPending) return;
    if (credits !== undefined && credits < GENERATION_COST) {
      toast.error(GENERATOR_TEXT.insufficientToast(credits));
      void navigate(paths.pricing.href);
      return;
    }
    create.mutate({ style, background, referenceKeys });
  };

  const { reset: resetCreate } = create;
  const onFailed = useCallback(
    (reason: string | null) => {
      toast.error(GENERATOR_TEXT.generationFailed, reason ? { description: reason } : undefined);
      setGenerationId(null);
      resetCreate();
      setStep(3);
    },
    [resetCreate],
  );

  const generateMore = useCallback(() => {
    if (generationId) queryClient.removeQueries({ queryKey: generationQueryKey(generationId) });
    clearDraft();
    uploads.clear();
    setStyle(null);
    setBackground(null);
    setGenerationId(null);
    resetCreate();
    setStep(1);
  }, [generationId, queryClient, resetCreate, uploads]);

  // After the likeness cap stopped a generation: other photos, the same style and background.
  const newPhotos = useCallback(() => {
    if (generationId) queryClient.removeQueries({ queryKey: generationQueryKey(generationId) });
    clearDraft();
    uploads.clear();
    setGenerationId(null);
    resetCreate();
    setStep(1);
  }, [generationId, queryClient, resetCreate, uploads]);

  const running = step === 4 && !isFinished(generation?.status);
  const back = () => {
    if (step === 1) {
      void navigate(paths.home.href);
      return;
    }
    if (step === 4) {
      setGenerationId(null);
      resetCreate();
    }
    setStep((step - 1) as WizardStep);
  };

  const { photos } = uploads;
  useEffect(() => {
    if (step <= 3) saveDraft({ step: step as 1 | 2 | 3, style, background, photos });
  }, [step, style, background, photos]);

  const { clear: clearPhotos } = uploads;
  const discard = useCallback(() => {
    clearDraft();
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

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>Create headshots · Headshot Studio</title>
      <WizardHeader step={step} onBack={back} backDisabled={running} />
      {step <= 3 && <LeaveGuard photoCount={uploads.uploadedKeys.length} onDiscard={discard} />}
      <main className="relative flex-1">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-80 bg-[radial-gradient(60%_60%_at_50%_0%,var(--color-brand-100),transparent)] opacity-70"
        />
        <div className="relative mx-auto w-full max-w-6xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12 sm:pb-24 lg:px-8">
          {step === 1 && <UploadStep uploads={uploads} checks={checks} onContinue={() => setStep(2)} />}
          {step === 2 && <StyleStep value={style} onChange={setStyle} onContinue={() => setStep(3)} />}
          {step === 3 && (
            <BackgroundStep
              value={background}
              onChange={setBackground}
              style={style}
              photoCount={uploads.uploadedKeys.length}
              credits={credits}
              generating={create.isPending}
              onGenerate={generate}
              onRetryCredits={me.isError ? () => void me.refetch() : undefined}
            />
          )}
          {step === 4 && generationId && (
            <GenerationStep
              generationId={generationId}
              onFailed={onFailed}
              onGenerateMore={generateMore}
              onNewPhotos={newPhotos}
            />
          )}
        </div>
      </main>
    </div>
  );
}
