import type { Background, Style } from './styles';

/**
 * The image prompt (docs/product-spec.md §7 "AI image edit": a style phrase and a background phrase plus fixed quality terms).
 * Pure and deterministic: the same choices always give the same prompt, so the provider's output depends only on
 * the photos and the model.
 */

/** What each style asks for: clothing, grooming and mood (docs/product-spec.md §2: Classic business attire, …). */
export const STYLE_PHRASES: Record<Style, string> = {
  professional:
    'a professional corporate headshot in classic business attire: a tailored dark suit or blazer, crisp collared shirt, neat grooming, confident and approachable expression',
  'business-casual':
    'a business casual headshot in a smart casual look: an open-collar shirt, knit sweater or unstructured blazer, relaxed and friendly expression',
  creative:
    'a modern, artistic creative headshot: stylish contemporary clothing, expressive confident pose, editorial color grading',
};

/** What each background asks for (docs/product-spec.md §2: Professional office setting, …). */
export const BACKGROUND_PHRASES: Record<Background, string> = {
  office: 'in front of a softly blurred professional office setting with warm ambient light',
  studio: 'against a clean, seamless neutral grey studio backdrop with soft, even lighting',
  outdoor: 'in a natural outdoor setting with soft daylight and gently blurred greenery behind',
  gradient: 'against a smooth, modern color gradient background',
};

/** Fixed terms every prompt ends with: identity first, then photographic quality. */
export const QUALITY_TERMS = [
  'keep the person exactly as they appear in the reference photos: same face, features, skin tone, hair and age',
  'head and shoulders framing, facing the camera, eyes in sharp focus',
  'photorealistic, high resolution, natural skin texture, flattering studio-quality lighting, shallow depth of field',
  'no text, no watermark, no extra people',
] as const;

/**
 * Builds the edit prompt for a style and background.
 *
 * @returns one sentence-structured prompt, e.g. 'Create a professional corporate headshot … of the person in the
 *   reference photos, in front of a softly blurred professional office setting …. Keep the person exactly as …'
 */
export function buildPrompt(style: Style, background: Background): string {
  const terms = QUALITY_TERMS.map((t) => `${t.charAt(0).toUpperCase()}${t.slice(1)}.`).join(' ');
  return `Create ${STYLE_PHRASES[style]} of the person in the reference photos, ${BACKGROUND_PHRASES[background]}. ${terms}`;
}
