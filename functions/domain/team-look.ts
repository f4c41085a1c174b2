import { BACKGROUNDS, STYLES, type Background, type Style } from './styles';
import { OUTFITS, type Outfit } from './outfits';
import { LookLockedError } from './team-errors';

/**
 * A team's brand look (issue 37 §3, docs/teams.md "The brand look"): the styles, backgrounds and outfits its members'
 * generations may use, each a short non-empty list; a list of one is locked (the wizard shows it, fixed). Checked on
 * the server at every team generation and edit. Pure: no I/O, safe in the browser bundle.
 */

/**
 * A background of the look: one of the four presets, or a custom colour (`#rrggbb`, lower case) — a plain backdrop
 * of that colour, as the edits' colour background (docs/product-spec.md §7 "Edit prompts").
 */
export type TeamBackground = { type: 'preset'; background: Background } | { type: 'colour'; colour: string };

/** The look: what a member's team generation may pick from. */
export interface TeamLook {
  styles: Style[];
  backgrounds: TeamBackground[];
  outfits: Outfit[];
}

/** At most this many custom colours in a look (the rest are the presets): a brand has one or two. */
export const MAX_LOOK_COLOURS = 3;

/** A new team's look: nothing locked (every style, preset background and outfit) until an admin sets it. */
export function openLook(): TeamLook {
  return {
    styles: [...STYLES],
    backgrounds: BACKGROUNDS.map((background) => ({ type: 'preset', background })),
    outfits: [...OUTFITS],
  };
}

/** The key two backgrounds are compared by: the preset's name or the colour, lower case. */
export function backgroundKey(background: TeamBackground): string {
  return background.type === 'preset' ? background.background : background.colour.toLowerCase();
}

/**
 * The look as stored: each list without repeats, colours lower case. The contract has checked each list is 1 to its
 * maximum long and each value known.
 */
export function normaliseLook(look: TeamLook): TeamLook {
  const seen = new Set<string>();
  const backgrounds: TeamBackground[] = [];
  for (const b of look.backgrounds) {
    const key = backgroundKey(b);
    if (seen.has(key)) continue;
    seen.add(key);
    backgrounds.push(b.type === 'colour' ? { type: 'colour', colour: key } : b);
  }
  return { styles: [...new Set(look.styles)], backgrounds, outfits: [...new Set(look.outfits)] };
}

/**
 * A generation's choice as `POST /api/generations` carries it: a preset background, and for a colour backdrop
 * `backgroundColour` (`#rrggbb`) with the preset `studio` (a plain studio backdrop, in that colour).
 */
export interface LookChoice {
  style: Style;
  background: Background;
  backgroundColour?: string | undefined;
  outfit: Outfit;
}

/** The preset a colour backdrop is stored under (the headshot's `background`, its file name and the gallery filter). */
export const COLOUR_BACKDROP_PRESET: Background = 'studio';

/**
 * Refuses a team generation's choice outside the team's look (issue 37 §3: "a member's generation uses them and
 * cannot change them").
 *
 * @throws {LookLockedError} naming the first field outside the look.
 */
export function assertInLook(look: TeamLook, choice: LookChoice): void {
  if (!look.styles.includes(choice.style)) throw new LookLockedError('style');
  const wanted: TeamBackground =
    choice.backgroundColour === undefined
      ? { type: 'preset', background: choice.background }
      : { type: 'colour', colour: choice.backgroundColour };
  const inLook =
    (wanted.type === 'preset' || choice.background === COLOUR_BACKDROP_PRESET) &&
    look.backgrounds.some((b) => backgroundKey(b) === backgroundKey(wanted));
  if (!inLook) throw new LookLockedError('background');
  if (!look.outfits.includes(choice.outfit)) throw new LookLockedError('outfit');
}

/**
 * The edit kinds a team headshot may take: those that keep the look (docs/teams.md "Money"); a background or outfit
 * edit would leave it, unless it picks from the look — which a locked look makes pointless, so both are refused.
 */
export const LOOK_KEEPING_EDITS = ['retouch', 'reframe', 'upscale'] as const;

/**
 * Refuses an edit of a team headshot that would leave the team's look: a background or outfit edit
 * ({@link LOOK_KEEPING_EDITS} are the kinds allowed).
 *
 * @throws {LookLockedError} naming what the edit would change
 */
export function assertLookKeepingEdit(kind: string): void {
  if ((LOOK_KEEPING_EDITS as readonly string[]).includes(kind)) return;
  throw new LookLockedError(kind === 'outfit' ? 'outfit' : 'background');
}

/** Whether every list of the look has exactly one entry: the wizard skips the look steps. */
export function isLocked(look: TeamLook): boolean {
  return look.styles.length === 1 && look.backgrounds.length === 1 && look.outfits.length === 1;
}
