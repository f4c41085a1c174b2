import type { TeamLookBody } from '../../../../../functions/contracts/teams';
import { TEAM_ERROR_MESSAGES } from '../../../../../functions/domain/team-errors';
import { COLOUR_BACKDROP_PRESET } from '../../../../../functions/domain/team-look';
import { SEAT_EDIT_CREDITS } from '../../../../../functions/domain/team-seats';
import {
  BACKGROUND_OPTIONS,
  OUTFIT_CHOICE,
  STYLE_OPTIONS,
  type BackgroundId,
  type OutfitId,
  type StyleId,
  type WizardOption,
} from './content';

/**
 * The wizard started for a team (issue 37, docs/teams.md "The brand look"): only the team's styles, backgrounds
 * (presets and custom colours) and outfits are offered, a list of one is fixed, and the team's allowance stands in
 * for the customer's credits. Pure rules, unit-tested.
 */

/** The wizard's texts of a team generation (docs/product-spec.md §2 "Teams"), verbatim. */
export const TEAM_WIZARD_TEXT = {
  locked: 'Set by your team',
  colour: 'Custom colour',
  paidBy: (team: string) => `Paid by ${team}`,
  pays: `Your team pays for your headshots: one generation of 6 headshots and ${SEAT_EDIT_CREDITS} edits.`,
  allowance: (used: number, of: number, editsUsed: number, edits: number) =>
    `Generation ${used} of ${of} · Edits ${editsUsed} of ${edits}`,
  generate: 'Generate Headshots',
  used: TEAM_ERROR_MESSAGES.TEAM_ALLOWANCE_USED_GENERATION,
  shareTitle: (team: string) => `Share with ${team}`,
  backToTeam: (team: string) => `Back to ${team}`,
} as const;

/** A background as the team wizard offers it: a preset's id, or a custom colour `#rrggbb`. */
export type TeamBackgroundKey = BackgroundId | `#${string}`;

/** Whether a background key is a custom colour. */
export const isColourKey = (key: string): key is `#${string}` => key.startsWith('#');

/** The styles of the look, as step 2's cards. */
export function teamStyleOptions(look: TeamLookBody): WizardOption<StyleId>[] {
  return STYLE_OPTIONS.filter((option) => look.styles.includes(option.id));
}

/** The outfits of the look, as step 2's choices. */
export function teamOutfitOptions(look: TeamLookBody) {
  return OUTFIT_CHOICE.options.filter((option) => look.outfits.includes(option.id));
}

/** The backgrounds of the look, as step 3's cards: its presets, then its colours (a swatch, no image). */
export function teamBackgroundOptions(look: TeamLookBody): WizardOption<TeamBackgroundKey>[] {
  return look.backgrounds.flatMap((b): WizardOption<TeamBackgroundKey>[] => {
    if (b.type === 'preset') return BACKGROUND_OPTIONS.filter((option) => option.id === b.background);
    return [
      {
        id: b.colour as `#${string}`,
        title: TEAM_WIZARD_TEXT.colour,
        description: b.colour,
        image: '',
        swatch: b.colour,
      },
    ];
  });
}

/**
 * The choice the wizard holds within the team's list: the only entry of a list of one (fixed), the value when the
 * list has it, else none (a draft's choice outside the look is dropped).
 */
export function withinLook<T>(value: T | null, allowed: readonly T[]): T | null {
  if (allowed.length === 1) return allowed[0]!;
  return value !== null && allowed.includes(value) ? value : null;
}

/** The outfit within the team's list: as {@link withinLook}, and the first of the list when the value is not in it. */
export function outfitWithinLook(value: OutfitId, allowed: readonly OutfitId[]): OutfitId {
  return withinLook(value, allowed) ?? allowed[0] ?? value;
}

/**
 * The background fields of `POST /api/generations` for a key: a preset as itself, a colour as the studio preset with
 * `backgroundColour` (docs/teams.md "The brand look").
 */
export function backgroundFields(key: TeamBackgroundKey): {
  background: BackgroundId;
  backgroundColour?: string;
} {
  return isColourKey(key)
    ? { background: COLOUR_BACKDROP_PRESET, backgroundColour: key }
    : { background: key };
}
