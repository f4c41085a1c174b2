import { describe, expect, it } from 'vitest';
import {
  changedAspects,
  editPrompt,
  KEPT_ASPECTS,
  type HeadshotAspect,
} from '../../functions/domain/edit-prompts';
import { REFRAMINGS, RETOUCH_STRENGTHS, type EditRequest } from '../../functions/domain/edits';
import { OUTFITS } from '../../functions/domain/outfits';
import { BACKGROUNDS } from '../../functions/domain/styles';

/** One request of every kind and option. */
const EVERY_REQUEST: EditRequest[] = [
  ...BACKGROUNDS.map((background): EditRequest => ({
    kind: 'background',
    background: { type: 'preset', background },
  })),
  { kind: 'background', background: { type: 'colour', colour: '#1f6feb' } },
  { kind: 'background', background: { type: 'transparent' } },
  ...OUTFITS.map((outfit): EditRequest => ({ kind: 'outfit', outfit })),
  ...RETOUCH_STRENGTHS.map((strength): EditRequest => ({ kind: 'retouch', strength })),
  ...REFRAMINGS.map((framing): EditRequest => ({ kind: 'reframe', framing })),
  { kind: 'upscale' },
];

const keptPart = (prompt: string) => prompt.slice(prompt.indexOf('Keep everything else'));

describe('editPrompt', () => {
  it('keeps every aspect the edit does not change, and never says to keep the one it changes', () => {
    for (const request of EVERY_REQUEST) {
      const prompt = editPrompt(request);
      const changed = changedAspects(request);
      for (const aspect of Object.keys(KEPT_ASPECTS) as HeadshotAspect[]) {
        const says = keptPart(prompt).includes(KEPT_ASPECTS[aspect]);
        expect(says, `${JSON.stringify(request)} keeps ${aspect}`).toBe(!changed.includes(aspect));
      }
      // The face is never among the changes: the likeness check compares it with the customer's photos.
      expect(keptPart(prompt)).toContain(KEPT_ASPECTS.face);
    }
  });

  it('changes the background for a background edit, the clothing for an outfit, the framing for a reframe', () => {
    expect(changedAspects({ kind: 'background', background: { type: 'transparent' } })).toEqual([
      'background',
    ]);
    expect(changedAspects({ kind: 'outfit', outfit: 'blazer' })).toEqual(['clothing']);
    expect(changedAspects({ kind: 'reframe', framing: 'wider' })).toEqual(['framing']);
    expect(changedAspects({ kind: 'retouch', strength: 'polished' })).toEqual([]);
    expect(changedAspects({ kind: 'upscale' })).toEqual([]);
  });

  it('names exactly what changes: the colour, transparency, the garments, the strength, the reframing', () => {
    expect(editPrompt({ kind: 'background', background: { type: 'colour', colour: '#1f6feb' } })).toContain(
      'solid colour of hex #1f6feb',
    );
    expect(editPrompt({ kind: 'background', background: { type: 'transparent' } })).toContain(
      'fully transparent background',
    );
    expect(
      editPrompt({ kind: 'background', background: { type: 'preset', background: 'studio' } }),
    ).toContain('studio backdrop');
    expect(editPrompt({ kind: 'outfit', outfit: 'suit-and-tie' })).toMatch(/suit jacket.*tie/);
    expect(editPrompt({ kind: 'outfit', outfit: 'own-clothing' })).toContain('no suit jacket and no tie');
    expect(editPrompt({ kind: 'retouch', strength: 'natural' })).toContain('natural skin texture');
    expect(editPrompt({ kind: 'retouch', strength: 'polished' })).toContain('polished finish');
    expect(editPrompt({ kind: 'reframe', framing: 'more-headroom' })).toContain('more space above the head');
    expect(editPrompt({ kind: 'upscale' })).toMatch(/^Upscale/);
  });

  it('gives every option its own prompt, the same one each time', () => {
    const prompts = EVERY_REQUEST.map(editPrompt);
    expect(new Set(prompts).size).toBe(EVERY_REQUEST.length);
    expect(EVERY_REQUEST.map(editPrompt)).toEqual(prompts);
  });
});
