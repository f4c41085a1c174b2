import { generationCost } from '../../../../../functions/domain/generation-cost';
import { GENERATOR_TEXT, LOW_CREDITS_THRESHOLD } from './content';
import { HIGH_RESOLUTION_TEXT } from './high-resolution';

/** Pure rules of the wizard's screens (docs/product-spec.md §2 steps 3 and 4), kept apart from React so they are unit-tested. */

/**
 * The status text under the progress bar (docs/product-spec.md §2 step 4): under 30 'Analyzing your photos...', 30 to under 90
 * 'Creating professional headshots...', 90 and above 'Almost done...'.
 */
export function progressStatusText(percent: number): string {
  if (percent < 30) return GENERATOR_TEXT.analyzing;
  if (percent < 90) return GENERATOR_TEXT.creating;
  return GENERATOR_TEXT.almostDone;
}

/** True when `credits` is known and under the low-credit threshold (docs/product-spec.md §9: under 6). */
export function isLowOnCredits(credits: number | undefined): boolean {
  return credits !== undefined && credits < LOW_CREDITS_THRESHOLD;
}

/**
 * Credits the wizard's generation costs: 6 headshots at the chosen resolution, by the rule the server charges
 * (functions/domain/generation-cost.ts): 6, or 12 with the high-resolution option. Every figure of step 3 (the
 * button, the credits card, the notice) and the wizard's toasts comes from here.
 */
export function wizardCost(highResolution = false): number {
  return generationCost({ resolution: highResolution ? 'high' : 'standard' });
}

/**
 * The toast of a start with too few credits (`credits` under {@link wizardCost}): 'Insufficient credits! You need 12
 * credits but only have 7.' (docs/product-spec.md §5), with the cost of the chosen resolution.
 */
export function insufficientCreditsToast(credits: number, highResolution = false): string {
  return GENERATOR_TEXT.insufficientToast(wizardCost(highResolution), credits);
}

/** What step 3 needs to decide how its generate button and notice look. */
export interface GenerateControlsInput {
  /** The balance, or `undefined` while it loads (the server checks it anyway). */
  credits: number | undefined;
  /** A background is selected. */
  hasBackground: boolean;
  /** A generation is being started or is running. */
  generating: boolean;
  /** The high-resolution option is on: 12 credits instead of 6 ({@link wizardCost}). */
  highResolution?: boolean;
  /** The photo check finds the photos show different people, none a majority (`mixed_people`). */
  mixedPeople?: boolean;
}

/** How step 3's generate button, credits card and notice look. */
export interface GenerateControls {
  label: string;
  disabled: boolean;
  /** The credits card is orange and says 'Running low on credits!'. */
  lowCredits: boolean;
  /** 'You need 6 credits to generate headshots, but you only have N.' (12 at high resolution), or null. */
  notice: string | null;
}

/**
 * Spec §2 step 3: the button reads 'Generating...' while running, 'Insufficient Credits' under 6 credits, else
 * 'Generate Headshots (6 credits)'; it is disabled without a background, while running, with too few credits, or
 * while the photos show different people (`mixed_people`: the server would refuse them, issue 33). Under 6 credits
 * the card turns orange and the notice names the balance.
 */
export function generateControls({
  credits,
  hasBackground,
  generating,
  highResolution = false,
  mixedPeople = false,
}: GenerateControlsInput): GenerateControls {
  const cost = wizardCost(highResolution);
  const tooFew = credits !== undefined && credits < cost;
  return {
    label: generating
      ? GENERATOR_TEXT.generating
      : tooFew
        ? GENERATOR_TEXT.insufficient
        : GENERATOR_TEXT.generate(cost),
    disabled: !hasBackground || generating || tooFew || mixedPeople,
    lowCredits: isLowOnCredits(credits),
    // The notice names the cost of what is chosen: with high resolution on, 12 even under 6 credits.
    notice:
      credits === undefined || !tooFew
        ? null
        : highResolution
          ? HIGH_RESOLUTION_TEXT.needCredits(credits)
          : GENERATOR_TEXT.needCredits(cost, credits),
  };
}
