import { duplicateMessage } from '../../../lib/api/contracts';
import type { PhotoCheck } from '../api/check-photos';

/**
 * A photo check as step 1 shows it. The server numbers the photo a `duplicate` copies by its place in the request
 * (`duplicateOf` is its key); the wizard's tiles also count photos still uploading or failed, so the sentence is
 * written again with the number of the tile the customer sees: "This looks like the same picture as photo 2, so
 * we'll only use it once. Please use a different photo." A copy of a photo no longer on screen keeps the server's.
 *
 * @param tileNumber the number (from 1) of the tile showing the photo with this key, or `undefined`
 */
export function checkAsShown(check: PhotoCheck, tileNumber: (key: string) => number | undefined): PhotoCheck {
  const number = check.duplicateOf === undefined ? undefined : tileNumber(check.duplicateOf);
  if (number === undefined) return check;
  return {
    ...check,
    reasons: check.reasons.map((reason) =>
      reason.code === 'duplicate' ? { ...reason, message: duplicateMessage(number) } : reason,
    ),
  };
}
