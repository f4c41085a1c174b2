import type { EditRequest } from './edits';
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
