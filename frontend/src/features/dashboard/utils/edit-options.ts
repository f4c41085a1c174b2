import type {
  EditRequest,
  EditKind,
  Reframing,
  RetouchStrength,
} from '../../../../../functions/domain/edits';
import type { Outfit } from '../../../../../functions/domain/outfits';
import type { Background } from '../../../../../functions/domain/styles';

/**
 * The viewer's edits in the customer's words (docs/product-spec.md §2 "Edit a headshot", issue 36): every label and
 * hint of the Edit sheet, verbatim from the spec, keyed by the API's spelling (functions/domain/edits.ts,
 * functions/domain/outfits.ts), and how a version names what it changed.
 */

/** Credits one edit costs (docs/product-spec.md §2 "Edit a headshot": a one-slot generation, as a regeneration). */
export const EDIT_COST = 1;

/** One choice of a kind: the value as the API spells it, its label and, where the spec gives one, its hint. */
export interface EditChoice<Id extends string> {
  id: Id;
  label: string;
  hint?: string;
}

/** The five kinds, in the sheet's order. */
export const EDIT_KIND_LABELS: Record<EditKind, string> = {
  background: 'Background',
  outfit: 'Outfit',
  retouch: 'Retouch',
  reframe: 'Reframe',
  upscale: 'Upscale',
};

/** The four preset backgrounds, as the wizard names them. */
export const BACKGROUND_CHOICES: readonly EditChoice<Background>[] = [
  { id: 'office', label: 'Office' },
  { id: 'studio', label: 'Studio' },
  { id: 'outdoor', label: 'Outdoor' },
  { id: 'gradient', label: 'Gradient' },
];

/** The outfits (domain/outfits.ts), in its order. */
export const OUTFIT_CHOICES: readonly EditChoice<Outfit>[] = [
  { id: 'own-clothing', label: 'Your own clothing' },
  { id: 'suit-and-tie', label: 'Suit and tie' },
  { id: 'blazer', label: 'Blazer' },
  { id: 'shirt', label: 'Shirt' },
  { id: 'knitwear', label: 'Knitwear' },
];

/** Retouch strengths (domain/edits.ts RETOUCH_STRENGTHS). */
export const RETOUCH_CHOICES: readonly EditChoice<RetouchStrength>[] = [
  { id: 'natural', label: 'Natural', hint: 'Evens the skin and keeps its texture' },
  { id: 'polished', label: 'Polished', hint: 'Smoother skin, as a studio retouch' },
];

/** Reframings (domain/edits.ts REFRAMINGS). */
export const REFRAME_CHOICES: readonly EditChoice<Reframing>[] = [
  { id: 'more-headroom', label: 'More headroom', hint: 'More space above your head' },
  { id: 'wider', label: 'Wider', hint: 'More of your shoulders' },
  { id: 'tighter', label: 'Tighter', hint: 'Closer on your face' },
];

/** The sheet's fixed sentences. */
export const EDIT_TEXT = {
  open: 'Edit',
  title: 'Edit this headshot',
  costNote:
    'Each edit costs 1 credit and makes a new version; the original is kept. If the result does not look like you, it is not delivered and the credit is refunded automatically.',
  confirm: 'Edit (1 credit)',
  customColour: 'Custom colour',
  colour: 'Colour',
  colourPicker: 'Colour picker',
  colourError: 'Pick a colour as # and six hex digits, e.g. #1f6feb.',
  transparent: 'Transparent',
  transparentHint: 'No background: a PNG with a transparent background',
  upscaleHint: 'The same headshot at the largest size the model makes',
  editing: 'Editing…',
  preview: 'Preview',
  previewHint: 'Preview: the edit is still being made and checked',
  delivered: 'Your new version is ready.',
  refusedLikeness:
    'This edit was not delivered: it did not look enough like you. Your credit has been refunded.',
  refused: 'This edit could not be made this time. Your credit has been refunded.',
  versions: 'Versions',
  original: 'Original',
  deleteVersion: 'Delete version',
  downloadFailed: "We couldn't download that version. Please try again.",
  deleteVersionBody:
    "The version's files are deleted for good. The original and the other versions are kept.",
} as const;

/** The version a name in the strip gives: 'Original' for null, else 'v1', 'v2', … by its place (1-based). */
export function versionName(place: number | null): string {
  return place === null ? EDIT_TEXT.original : `v${place}`;
}

/** What an edit changed, as the Versions strip says it, e.g. 'Background: #1f6feb', 'Outfit: blazer', 'Upscale'. */
export function describeEdit(edit: EditRequest): string {
  switch (edit.kind) {
    case 'background': {
      const b = edit.background;
      const what = b.type === 'preset' ? b.background : b.type === 'colour' ? b.colour : 'transparent';
      return `Background: ${what}`;
    }
    case 'outfit':
      return `Outfit: ${(OUTFIT_CHOICES.find((o) => o.id === edit.outfit)?.label ?? edit.outfit).toLowerCase()}`;
    case 'retouch':
      return `Retouch: ${edit.strength}`;
    case 'reframe':
      return `Reframe: ${edit.framing.replaceAll('-', ' ')}`;
    case 'upscale':
      return 'Upscale';
  }
}

/**
 * Why an edit cannot start with `credits` on the balance, or null when it can (unknown balance: the server decides).
 * Said beside the disabled button, so a tap never meets a silent one (as regenerateUnavailable, issue 27).
 */
export function editUnavailable(credits: number | undefined): string | null {
  if (credits === undefined || credits >= EDIT_COST) return null;
  return `No credits left: an edit needs ${EDIT_COST} credit; you have ${credits}.`;
}
