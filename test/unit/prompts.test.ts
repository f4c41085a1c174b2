import { describe, expect, it } from 'vitest';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import { OUTFITS } from '../../functions/domain/outfits';
import { SLOTS } from '../../functions/domain/slots';
import {
  BACKGROUND_PHRASES,
  buildPrompt,
  OUTFIT_PHRASES,
  QUALITY_TERMS,
  SLOT_VARIATIONS,
  slotPrompt,
  slotVariation,
  STYLE_PHRASES,
  variationSentence,
} from '../../functions/domain/prompts';

describe('buildPrompt', () => {
  it('combines the style, outfit and background phrases and the fixed quality terms, for every choice', () => {
    const prompts = new Set<string>();
    for (const style of STYLES) {
      for (const background of BACKGROUNDS) {
        for (const outfit of OUTFITS) {
          const prompt = buildPrompt({ style, background, outfit });
          expect(prompt).toContain(STYLE_PHRASES[style]);
          expect(prompt).toContain(BACKGROUND_PHRASES[background]);
          expect(prompt).toContain(OUTFIT_PHRASES[outfit]);
          for (const term of QUALITY_TERMS) expect(prompt.toLowerCase()).toContain(term.toLowerCase());
          expect(prompt).not.toMatch(/undefined|null|\$\{/);
          expect(prompt.length).toBeLessThan(32_000); // the GPT image models' prompt limit
          prompts.add(prompt);
        }
      }
    }
    expect(prompts.size).toBe(STYLES.length * BACKGROUNDS.length * OUTFITS.length);
  });

  it('is deterministic, keeps the person’s identity first among the quality terms, and defaults to own clothing', () => {
    expect(buildPrompt({ style: 'creative', background: 'gradient' })).toBe(
      buildPrompt({ style: 'creative', background: 'gradient', outfit: 'own-clothing' }),
    );
    expect(buildPrompt({ style: 'professional', background: 'office' })).toMatch(
      /^Create a professional corporate headshot .* of the person in the reference photos, wearing the same clothing as in the reference photos.*, in front of a softly blurred professional office setting.*\. Keep the person exactly as they appear/,
    );
  });

  it('lets the outfit decide the clothing: no style phrase names a garment', () => {
    const garments = /suit|blazer|shirt|sweater|tie\b|jacket|knit/i;
    for (const style of STYLES) expect(STYLE_PHRASES[style]).not.toMatch(garments);
    expect(OUTFIT_PHRASES['suit-and-tie']).toMatch(/suit.*tie/);
    expect(OUTFIT_PHRASES.blazer).toMatch(/blazer/);
    expect(OUTFIT_PHRASES.shirt).toMatch(/shirt without a jacket/);
    expect(OUTFIT_PHRASES.knitwear).toMatch(/sweater/);
    expect(OUTFIT_PHRASES['own-clothing']).toMatch(/same clothing as in the reference photos/);
  });

  it('asks for what the spec’s cards promise', () => {
    expect(STYLE_PHRASES.professional).toMatch(/classic business attire/);
    expect(STYLE_PHRASES['business-casual']).toMatch(/smart casual/);
    expect(STYLE_PHRASES.creative).toMatch(/modern, artistic/);
    expect(BACKGROUND_PHRASES.office).toMatch(/office/);
    expect(BACKGROUND_PHRASES.studio).toMatch(/studio/);
    expect(BACKGROUND_PHRASES.outdoor).toMatch(/outdoor/);
    expect(BACKGROUND_PHRASES.gradient).toMatch(/gradient/);
  });
});

describe('slot variations', () => {
  it('gives each of the six slots its own variation: every expression and light differs, no angle and framing pair repeats', () => {
    expect(SLOT_VARIATIONS).toHaveLength(SLOTS.length);
    const distinct = (values: string[]) => new Set(values).size;
    expect(distinct(SLOT_VARIATIONS.map((v) => v.expression))).toBe(SLOTS.length);
    expect(distinct(SLOT_VARIATIONS.map((v) => v.light))).toBe(SLOTS.length);
    expect(distinct(SLOT_VARIATIONS.map((v) => `${v.angle}|${v.framing}`))).toBe(SLOTS.length);
  });

  it('makes six different prompts for one look, each naming its variation after the look', () => {
    const look = buildPrompt({ style: 'professional', background: 'studio', outfit: 'blazer' });
    const prompts = SLOTS.map((slot) => slotPrompt(look, slotVariation({}, slot)));
    expect(new Set(prompts).size).toBe(SLOTS.length);
    prompts.forEach((prompt, slot) => {
      expect(prompt.startsWith(look)).toBe(true);
      const v = SLOT_VARIATIONS[slot]!;
      for (const part of [v.angle, v.framing, v.expression, v.light]) expect(prompt).toContain(part);
    });
  });

  it('uses the slot’s own variation unless a one-slot generation names one (a regeneration keeps its headshot’s)', () => {
    expect(SLOTS.map((slot) => slotVariation({}, slot))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slotVariation({ variation: 4 }, 0)).toBe(4);
    expect(slotVariation({ variation: 7 }, 0)).toBe(1);
    expect(slotVariation({ variation: -1 }, 0)).toBe(5);
    expect(variationSentence(2)).toBe(
      'Pose: body turned slightly to the right, face toward the camera. Framing: a closer crop from the top of the head to just below the collar. Expression: a calm, confident look with a hint of a smile. Light: key light from the left.',
    );
  });
});
