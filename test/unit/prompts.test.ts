import { describe, expect, it } from 'vitest';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import {
  BACKGROUND_PHRASES,
  buildPrompt,
  QUALITY_TERMS,
  STYLE_PHRASES,
} from '../../functions/domain/prompts';

describe('buildPrompt', () => {
  it('combines the style phrase, the background phrase and the fixed quality terms, for every choice', () => {
    const prompts = new Set<string>();
    for (const style of STYLES) {
      for (const background of BACKGROUNDS) {
        const prompt = buildPrompt(style, background);
        expect(prompt).toContain(STYLE_PHRASES[style]);
        expect(prompt).toContain(BACKGROUND_PHRASES[background]);
        for (const term of QUALITY_TERMS) expect(prompt.toLowerCase()).toContain(term.toLowerCase());
        expect(prompt).not.toMatch(/undefined|null|\$\{/);
        expect(prompt.length).toBeLessThan(32_000); // the GPT image models' prompt limit
        prompts.add(prompt);
      }
    }
    expect(prompts.size).toBe(STYLES.length * BACKGROUNDS.length);
  });

  it('is deterministic and keeps the person’s identity first among the quality terms', () => {
    expect(buildPrompt('creative', 'gradient')).toBe(buildPrompt('creative', 'gradient'));
    expect(buildPrompt('professional', 'office')).toMatch(
      /^Create a professional corporate headshot in classic business attire.* of the person in the reference photos, in front of a softly blurred professional office setting.*\. Keep the person exactly as they appear/,
    );
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
