import type { EditBackground, EditRequest, Reframing, RetouchStrength } from './edits';
import type { Outfit } from './outfits';
import { BACKGROUND_PHRASES } from './prompts';

/**
 * The prompt of an edit of a finished headshot (issue 36 item 3: "The prompt keeps everything the customer did not
 * ask to change"; docs/product-spec.md §7 "Edit prompts" lists the same table). The provider gets the headshot itself
 * as its one input image; the prompt names exactly what changes, then every aspect of the image that must stay as it
 * is, minus the changed one. Pure and deterministic: the same request always gives the same prompt.
 */

/** The aspects of a headshot an edit may keep or change, as the prompt names them when they are kept. */
export const KEPT_ASPECTS = {
  face: "the person's face, identity and every facial feature",
  expression: 'their expression',
  pose: 'their pose and head angle',
  hair: 'their hair',
  clothing: 'their clothing',
  background: 'the background',
  light: 'the lighting and colour grade',
  framing: 'the framing and crop',
} as const;
/** One of the keys of {@link KEPT_ASPECTS}. */
export type HeadshotAspect = keyof typeof KEPT_ASPECTS;

/**
 * What each outfit edit dresses the person in. The garments are the wizard's (domain/prompts.ts `OUTFIT_PHRASES`
 * says the same of a new generation); `own-clothing` cannot point at reference photos here (the edit sends the
 * headshot only), so it asks for simple everyday clothes instead of business wear.
 */
const OUTFIT_CHANGES: Record<Outfit, string> = {
  'own-clothing': 'simple, neat everyday clothes in plain colours, no suit jacket and no tie',
  'suit-and-tie': 'a tailored dark suit jacket, a crisp white collared shirt and a plain silk tie',
  blazer: 'a well-fitted blazer over a plain top or an open-collar shirt, no tie',
  shirt: 'a crisp collared button-up shirt without a jacket or tie',
  knitwear: 'a fine-knit sweater in a solid colour',
};

const RETOUCH_CHANGES: Record<RetouchStrength, string> = {
  natural:
    'Retouch the skin lightly: even out the skin tone and soften small blemishes and redness, keeping the natural skin texture and pores',
  polished:
    'Retouch the skin to a polished finish: smooth the skin, even out the tone, reduce shine, under-eye shadows and blemishes, keeping a realistic skin texture',
};

const REFRAME_CHANGES: Record<Reframing, string> = {
  'more-headroom':
    'Reframe the photo with more space above the head: the person a little smaller and lower in the frame, the background extended above them',
  wider:
    'Reframe the photo wider: show more of the shoulders and upper body, extending the clothing and the background naturally at the sides and bottom',
  tighter: 'Reframe the photo tighter: a closer crop around the head and shoulders',
};

function backgroundChange(background: EditBackground): string {
  switch (background.type) {
    case 'preset':
      return `Replace the background: the person ${BACKGROUND_PHRASES[background.background]}`;
    case 'colour':
      return `Replace the background with a plain, evenly lit solid colour of hex ${background.colour}, with no pattern or objects`;
    case 'transparent':
      return 'Remove the background completely: a fully transparent background behind the person, no backdrop and no cast shadow';
  }
}

/** What the edit changes, in the prompt's words, and which aspects that changes (the rest are kept). */
function changeOf(request: EditRequest): { change: string; changes: readonly HeadshotAspect[] } {
  switch (request.kind) {
    case 'background':
      return { change: backgroundChange(request.background), changes: ['background'] };
    case 'outfit':
      return {
        change: `Change the clothing: dress the person in ${OUTFIT_CHANGES[request.outfit]}, fitted naturally to their posture`,
        changes: ['clothing'],
      };
    case 'retouch':
      return { change: RETOUCH_CHANGES[request.strength], changes: [] };
    case 'reframe':
      return { change: REFRAME_CHANGES[request.framing], changes: ['framing'] };
    case 'upscale':
      return {
        change:
          'Upscale this headshot to a higher resolution: sharper, cleaner fine detail in the eyes, hair, skin and fabric, adding nothing new',
        changes: [],
      };
  }
}

/** The aspects of the headshot an edit changes (none for a retouch or an upscale: they only refine what is there). */
export function changedAspects(request: EditRequest): readonly HeadshotAspect[] {
  return changeOf(request).changes;
}

/**
 * The edit's prompt: what changes, then "keep everything else exactly as it is", naming each kept aspect, and that
 * the result stays a photorealistic headshot of the same person (the likeness check will compare it with the
 * customer's reference photos).
 */
export function editPrompt(request: EditRequest): string {
  const { change, changes } = changeOf(request);
  const kept = (Object.keys(KEPT_ASPECTS) as HeadshotAspect[])
    .filter((aspect) => !changes.includes(aspect))
    .map((aspect) => KEPT_ASPECTS[aspect]);
  return `${change}. Keep everything else exactly as it is: ${kept.join(', ')}. The result is a photorealistic headshot of the same person.`;
}
