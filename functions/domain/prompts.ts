import { DEFAULT_OUTFIT, type Outfit } from './outfits';
import { SLOTS } from './slots';
import type { Background, Style } from './styles';

/**
 * The image prompt (docs/product-spec.md §7 "AI image edit": a style phrase, a background phrase, the outfit, the
 * slot's variation and fixed quality terms; docs/decisions/027-slot-variations.md).
 * Pure and deterministic: the same choices and slot always give the same prompt, so the provider's output depends
 * only on the photos and the model.
 */

/**
 * What each style asks for: grooming, mood and finish (docs/product-spec.md §2: Classic business attire, …). The
 * clothing is the outfit's ({@link OUTFIT_PHRASES}): a style only says how dressy the whole look reads, so a chosen
 * outfit is never contradicted by its style (issue 36: the outfit takes precedence).
 */
export const STYLE_PHRASES: Record<Style, string> = {
  professional:
    'a professional corporate headshot with the polish of classic business attire: neat grooming, confident and approachable expression',
  'business-casual':
    'a business casual headshot in a smart casual look: relaxed and friendly expression, natural grooming',
  creative:
    'a modern, artistic creative headshot: contemporary styling, expressive confident pose, editorial color grading',
};

/** What each background asks for (docs/product-spec.md §2: Professional office setting, …). */
export const BACKGROUND_PHRASES: Record<Background, string> = {
  office: 'in front of a softly blurred professional office setting with warm ambient light',
  studio: 'against a clean, seamless neutral grey studio backdrop with soft, even lighting',
  outdoor: 'in a natural outdoor setting with soft daylight and gently blurred greenery behind',
  gradient: 'against a smooth, modern color gradient background',
};

/**
 * What each outfit dresses the person in (domain/outfits.ts, docs/product-spec.md §2 "Outfit"). `own-clothing` keeps
 * what the reference photos show them wearing, so the prompt names no garment of its own.
 */
export const OUTFIT_PHRASES: Record<Outfit, string> = {
  'own-clothing':
    'wearing the same clothing as in the reference photos, the same garments and colours, neat and well fitted',
  'suit-and-tie': 'wearing a tailored dark suit jacket, a crisp white collared shirt and a plain silk tie',
  blazer: 'wearing a well-fitted blazer over a plain top or an open-collar shirt, no tie',
  shirt: 'wearing a crisp collared button-up shirt without a jacket or tie',
  knitwear: 'wearing a fine-knit sweater in a solid colour, over a collared shirt or on its own',
};

/**
 * One slot's variation within the chosen look (docs/decisions/027-slot-variations.md): how the head and body are
 * turned, how much of the person the frame holds, the expression and where the key light comes from. All six stay
 * a headshot (head and shoulders at the widest) with both eyes visible, so the likeness check sees the whole face.
 */
export interface SlotVariation {
  /** The pose: where the body and the head face. */
  angle: string;
  /** How much of the person the frame holds. */
  framing: string;
  expression: string;
  /** Where the key light comes from. */
  light: string;
}

/**
 * The six variations, one per slot of a generation (index = slot; docs/product-spec.md §7 lists the same table).
 * Every slot's expression and light differ, and no two slots share both their angle and their framing.
 */
export const SLOT_VARIATIONS: readonly SlotVariation[] = [
  {
    angle: 'body and face turned straight to the camera',
    framing: 'classic head-and-shoulders framing',
    expression: 'a warm, closed-mouth smile',
    light: 'soft key light from the front left',
  },
  {
    angle: 'body turned slightly to the left, face toward the camera',
    framing: 'head-and-shoulders framing',
    expression: 'a natural open smile',
    light: 'key light from the right',
  },
  {
    angle: 'body turned slightly to the right, face toward the camera',
    framing: 'a closer crop from the top of the head to just below the collar',
    expression: 'a calm, confident look with a hint of a smile',
    light: 'key light from the left',
  },
  {
    angle: 'body and face turned straight to the camera',
    framing: 'a slightly wider framing down to mid-chest',
    expression: 'a relaxed, friendly smile',
    light: 'soft light from above and in front, even on both sides of the face',
  },
  {
    angle: 'body turned slightly to the left, head tilted very slightly',
    framing: 'a closer crop from the top of the head to just below the collar',
    expression: 'an approachable, thoughtful half-smile',
    light: 'window-style side light from the left',
  },
  {
    angle: 'body turned slightly to the right, face toward the camera',
    framing: 'a slightly wider framing down to mid-chest',
    expression: 'a broad, genuine smile',
    light: 'warm key light from the right with a gentle rim light',
  },
];

/** Fixed terms every prompt ends with: identity first, then photographic quality. */
export const QUALITY_TERMS = [
  'keep the person exactly as they appear in the reference photos: same face, features, skin tone, hair and age',
  'both eyes visible and in sharp focus, looking at the camera',
  'photorealistic, high resolution, natural skin texture, flattering studio-quality lighting, shallow depth of field',
  'no text, no watermark, no extra people',
] as const;

/** The choices a set is made of: what the customer picked in the wizard (outfit absent: their own clothing). */
export interface Look {
  style: Style;
  background: Background;
  outfit?: Outfit;
  /**
   * A team's custom backdrop colour (`#rrggbb`: domain/team-look.ts), which replaces the preset background's phrase
   * with a plain backdrop of that colour.
   */
  backgroundColour?: string;
}

/**
 * The background phrase of a custom colour: a plain, evenly lit backdrop of that hex colour, as the edits' colour
 * background asks for one (domain/edit-prompts.ts; docs/teams.md "The brand look").
 */
export function colourBackdropPhrase(colour: string): string {
  return `in front of a plain, evenly lit solid colour backdrop of hex ${colour}, with no pattern or objects`;
}

/**
 * The variation a slot uses: a generation's slot `n` uses variation `n`; a one-slot generation (a regeneration)
 * names the variation of the headshot it regenerates (`variation` on the generation item), so a redo keeps the pose
 * the customer asked to redo (docs/decisions/027-slot-variations.md).
 *
 * @param generation `variation`: the one-slot generation's variation, when it names one
 * @returns an index into {@link SLOT_VARIATIONS} (a slot outside it wraps, so every number gives a variation)
 */
export function slotVariation(generation: { variation?: number }, slot: number): number {
  const chosen = generation.variation ?? slot;
  return ((chosen % SLOTS.length) + SLOTS.length) % SLOTS.length;
}

/** A variation as the prompt says it: 'Pose: … Framing: … Expression: … Light: ….' */
export function variationSentence(variation: number): string {
  const v = SLOT_VARIATIONS[slotVariation({}, variation)]!;
  return `Pose: ${v.angle}. Framing: ${v.framing}. Expression: ${v.expression}. Light: ${v.light}.`;
}

const sentence = (t: string) => `${t.charAt(0).toUpperCase()}${t.slice(1)}.`;

/**
 * Builds the prompt of a set's look: the style, the outfit (which decides the clothing), the background, then the
 * fixed quality terms. Each slot's call adds its variation ({@link slotPrompt}).
 *
 * @returns one sentence-structured prompt, e.g. 'Create a professional corporate headshot … of the person in the
 *   reference photos, wearing …, in front of a softly blurred professional office setting …. Keep the person
 *   exactly as …'
 */
export function buildPrompt(look: Look): string {
  const outfit = OUTFIT_PHRASES[look.outfit ?? DEFAULT_OUTFIT];
  const terms = QUALITY_TERMS.map(sentence).join(' ');
  const background =
    look.backgroundColour === undefined
      ? BACKGROUND_PHRASES[look.background]
      : colourBackdropPhrase(look.backgroundColour);
  return `Create ${STYLE_PHRASES[look.style]} of the person in the reference photos, ${outfit}, ${background}. ${terms}`;
}

/**
 * One slot's prompt: the set's look ({@link buildPrompt}) followed by the slot's variation, so the six calls of a set
 * differ in pose, framing, expression and light and agree on everything the customer chose.
 *
 * @param variation the slot's variation ({@link slotVariation})
 */
export function slotPrompt(lookPrompt: string, variation: number): string {
  return `${lookPrompt} ${variationSentence(variation)}`;
}
