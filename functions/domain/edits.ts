import type { Background } from './styles';
import type { Outfit } from './outfits';

/**
 * Edits of a finished headshot (issue 36, docs/product-spec.md §2 "Edit a headshot"): the kinds a customer can ask,
 * as the API spells them, and the order an edit is started with. An edit is a one-slot generation through the same
 * workflow, provider line and deadline as a regeneration (docs/architecture.md §4): one provider call of the headshot
 * itself, likeness-checked against the customer's reference photos, 1 credit, refunded when it is not delivered. Its
 * result is a new version of the headshot; the original is never overwritten. Pure: no I/O.
 */

/** The kinds of edit, as the API spells them. */
export const EDIT_KINDS = ['background', 'outfit', 'retouch', 'reframe', 'upscale'] as const;
/** One of {@link EDIT_KINDS}. */
export type EditKind = (typeof EDIT_KINDS)[number];

/** Retouch strengths: `natural` keeps skin texture, `polished` smooths more (issue 36). */
export const RETOUCH_STRENGTHS = ['natural', 'polished'] as const;
/** One of {@link RETOUCH_STRENGTHS}. */
export type RetouchStrength = (typeof RETOUCH_STRENGTHS)[number];

/** Reframings: more space above the head, a wider (more of the shoulders) or a tighter crop (issue 36). */
export const REFRAMINGS = ['more-headroom', 'wider', 'tighter'] as const;
/** One of {@link REFRAMINGS}. */
export type Reframing = (typeof REFRAMINGS)[number];

/**
 * A background an edit can put behind the person: one of the four presets, a custom colour (`#rrggbb`, lower case)
 * or none at all (`transparent`: a PNG with an alpha channel).
 */
export type EditBackground =
  { type: 'preset'; background: Background } | { type: 'colour'; colour: string } | { type: 'transparent' };

/** What the customer asks to change; everything else in the headshot is kept (the prompt says so). */
export type EditRequest =
  | { kind: 'background'; background: EditBackground }
  | { kind: 'outfit'; outfit: Outfit }
  | { kind: 'retouch'; strength: RetouchStrength }
  | { kind: 'reframe'; framing: Reframing }
  | { kind: 'upscale' };

/**
 * The edit a one-slot generation carries (on the generation item as `edit`): which headshot (the gallery's item, the
 * root of its versions), which of its versions is the image sent to the provider (`undefined`: the original), and
 * what to change.
 */
export interface EditOrder {
  /** The headshot's id (`HEADSHOT#<id>`): the root every version of it belongs to. */
  headshotId: string;
  /** The version edited (`VERSION#<headshotId>#<versionId>`); absent when the original headshot is edited. */
  sourceVersionId?: string;
  request: EditRequest;
}

/** A custom background colour as the API takes it: `#` and six hex digits, stored lower case. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The slots of an edit: one headshot's worth (one provider call, one credit), as a regeneration. */
export const EDIT_SLOTS: readonly number[] = [0];
