/**
 * What step 1 says, under its dropzone, about the files a pick left out (issue 35 item 4: "rejected files listed
 * inline by the dropzone with their reasons until dismissed, with a count of what was added and what was not"). A
 * toast vanishes in 4 s and a success toast hid the warning under it; this list stays until the customer dismisses
 * it. Pure, so the counting is unit-tested without a browser. The strings are docs/product-spec.md §5's, verbatim.
 */

/** A file a pick left out, and why: one sentence naming it and the rule it broke (file-rules.ts `refusalOf`). */
export interface RefusedFile {
  name: string;
  reason: string;
}

/** The list under the dropzone: what the picks since the customer last dismissed it added and left out. */
export interface DropReport {
  /** Files added to the wizard (as tiles; their upload is shown on each tile). */
  added: number;
  /** Files left out, in the order they were picked. */
  refused: RefusedFile[];
  /**
   * The rule's sentence when it applies to the latest pick: 'Please upload valid image files (max 10MB each)' when
   * nothing in it could be added, 'Maximum 10 files allowed. Some files were not added.' when the cap cut it.
   */
  note: string | null;
}

/** The drop report's texts (docs/product-spec.md §5 "Refused files, listed"). */
export const DROP_REPORT_TEXT = {
  /** '1 photo added, 3 not added', 'No photos added, 2 not added', '4 photos added, 1 not added'. */
  title: (added: number, notAdded: number) =>
    `${added === 0 ? 'No photos' : added === 1 ? '1 photo' : `${added} photos`} added, ${notAdded} not added`,
  /** A valid photo the cap of 10 left out. */
  overTheCap: (name: string) => `${name} was not added: the limit is 10 photos.`,
  dismiss: 'Dismiss',
  /** The dismiss button's accessible name (the visible word alone says not what goes). */
  dismissLabel: 'Dismiss the list of files not added',
} as const;

/**
 * The report after one more pick: the counts add up and the refused files follow the earlier ones, so a second
 * pick does not wipe out what the first one left out before the customer has read it. A pick that left nothing out
 * adds to an open report (its count stays true) and opens none.
 *
 * @param previous the report on screen, or null when there is none (never shown, or dismissed)
 * @param pick what the pick added, left out and the rule's sentence (file-rules.ts `selectFiles`)
 * @returns the report to show, or null when nothing was ever left out
 */
export function withPick(
  previous: DropReport | null,
  pick: { added: number; refused: readonly RefusedFile[]; note: string | null },
): DropReport | null {
  if (!previous && pick.refused.length === 0) return null;
  return {
    added: (previous?.added ?? 0) + pick.added,
    refused: [...(previous?.refused ?? []), ...pick.refused],
    note: pick.refused.length > 0 ? pick.note : (previous?.note ?? null),
  };
}
