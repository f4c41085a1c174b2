import type { TeamBackgroundBody, TeamLookBody } from '../../../../../functions/contracts/teams';
import { HEX_COLOUR } from '../../../../../functions/domain/edits';
import { MAX_LOOK_COLOURS } from '../../../../../functions/domain/team-look';
import type { Background, Style } from '../../../../../functions/domain/styles';
import type { Outfit } from '../../../../../functions/domain/outfits';

/** The brand look's editor rules (docs/teams.md "The brand look"), pure so they are unit-tested. */

/** The names the wizard gives each choice (docs/product-spec.md §2 "Generator wizard"), in its order. */
export const STYLE_LABELS: Record<Style, string> = {
  professional: 'Professional',
  'business-casual': 'Business Casual',
  creative: 'Creative',
};
export const BACKGROUND_LABELS: Record<Background, string> = {
  office: 'Office',
  studio: 'Studio',
  outdoor: 'Outdoor',
  gradient: 'Gradient',
};
export const OUTFIT_LABELS: Record<Outfit, string> = {
  'own-clothing': 'Keep my own clothes',
  'suit-and-tie': 'Suit and tie',
  blazer: 'Blazer',
  shirt: 'Shirt',
  knitwear: 'Knitwear',
};

/** `values` with `value` added (in `order`'s order) or taken out. */
export function toggled<T>(values: readonly T[], value: T, order: readonly T[]): T[] {
  const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  return order.filter((v) => next.includes(v));
}

/** The look's preset backgrounds with `background` added or taken out; its colours kept after them. */
export function toggledPreset(
  look: TeamLookBody,
  background: Background,
  order: readonly Background[],
): TeamLookBody {
  const presets = look.backgrounds.flatMap((b) => (b.type === 'preset' ? [b.background] : []));
  const colours = look.backgrounds.filter((b) => b.type === 'colour');
  const next = toggled(presets, background, order).map((b): TeamBackgroundBody => ({
    type: 'preset',
    background: b,
  }));
  return { ...look, backgrounds: [...next, ...colours] };
}

/** The custom colours of the look, `#rrggbb` lower case. */
export function coloursOf(look: TeamLookBody): string[] {
  return look.backgrounds.flatMap((b) => (b.type === 'colour' ? [b.colour] : []));
}

/**
 * The look with `colour` added as a custom background, or null when it is not `#rrggbb`, is there already, or the
 * look has its {@link MAX_LOOK_COLOURS} colours.
 */
export function withColour(look: TeamLookBody, colour: string): TeamLookBody | null {
  const hex = colour.trim().toLowerCase();
  const colours = coloursOf(look);
  if (!HEX_COLOUR.test(hex) || colours.includes(hex) || colours.length >= MAX_LOOK_COLOURS) return null;
  return { ...look, backgrounds: [...look.backgrounds, { type: 'colour', colour: hex }] };
}

/** The look without the custom colour `colour`. */
export function withoutColour(look: TeamLookBody, colour: string): TeamLookBody {
  return { ...look, backgrounds: look.backgrounds.filter((b) => b.type !== 'colour' || b.colour !== colour) };
}

/** Whether two looks hold the same choices (the order of the lists aside). */
export function sameLook(a: TeamLookBody, b: TeamLookBody): boolean {
  const key = (look: TeamLookBody) =>
    JSON.stringify([
      [...look.styles].sort(),
      look.backgrounds.map((bg) => (bg.type === 'preset' ? bg.background : bg.colour)).sort(),
      [...look.outfits].sort(),
    ]);
  return key(a) === key(b);
}
