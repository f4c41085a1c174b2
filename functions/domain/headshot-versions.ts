import type { EditRequest } from './edits';
import { VARIANT_CONTENT_TYPES, type HeadshotVariant } from './headshot-variants';
import { namedError } from './named-error';

/**
 * Versions of a headshot (issue 36, docs/architecture.md §2): an edit's result is a new version beside the original,
 * never an overwrite. The rules every layer shares about them. Pure: no I/O.
 */

/**
 * The headshot an edit was made of was deleted while the edit was being made: its version is not saved (the save's
 * transaction requires the root headshot to exist), the files stored for it are deleted, and the slot is refunded
 * (the workflow fails the slot; Finalize refunds it, domain/slot-outcomes.ts). Not retryable.
 */
export class HeadshotDeletedError extends namedError('HeadshotDeletedError') {}

/**
 * True when the edit takes the background away: its files keep an alpha channel (square, portrait and original are
 * PNG, the thumbnail WebP with alpha) instead of the JPEG squares and portraits of every other headshot.
 */
export function isTransparentEdit(edit: EditRequest): boolean {
  return edit.kind === 'background' && edit.background.type === 'transparent';
}

/**
 * The content type a version's file is stored and served with: a transparent version's square and portrait are PNG
 * (they keep their alpha), otherwise as every headshot's (./headshot-variants.ts `VARIANT_CONTENT_TYPES`).
 */
export function versionContentType(
  variant: HeadshotVariant,
  transparent: boolean,
): 'image/jpeg' | 'image/png' {
  return transparent ? 'image/png' : VARIANT_CONTENT_TYPES[variant];
}

/**
 * The name a version's file is downloaded under: its headshot's name with `-v<k>` before the variant, `k` the
 * version's 1-based place among the headshot's versions, oldest first (the viewer's 'v1', 'v2', …:
 * docs/product-spec.md §2 "Edit a headshot"), and `.png` for every file of a transparent version, e.g.
 * `headshot-business-casual-office-3-v2-square.jpg`. Sorted by name, a headshot's versions sit right after its own
 * files (`…-3-original.png`, `…-3-portrait.jpg`, `…-3-square.jpg`, `…-3-v1-…`).
 */
export function versionFileName(
  headshot: { style: string; background: string; slot: number },
  k: number,
  variant: HeadshotVariant,
  transparent: boolean,
): string {
  const extension = versionContentType(variant, transparent) === 'image/png' ? 'png' : 'jpg';
  return `headshot-${headshot.style}-${headshot.background}-${headshot.slot + 1}-v${k}-${variant}.${extension}`;
}
