/** The line's text (docs/architecture.md §2, a reversal shortfall). */
export const OWED_CREDITS_TEXT = (owed: number) =>
  `A refunded or disputed payment took back credits that had already been used: your account owes ${owed} ${
    owed === 1 ? 'credit' : 'credits'
  }, which will be taken from the next credits you receive.`;

/**
 * One line on the dashboard while the account owes credits (`creditsOwed` of `GET /api/me`): what happened and what
 * will happen, so the next purchase's balance is no surprise. Nothing when nothing is owed.
 */
export function OwedCredits({ owed }: { owed: number | undefined }) {
  if (!owed) return null;
  return (
    <p className="mt-4 max-w-3xl rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {OWED_CREDITS_TEXT(owed)}
    </p>
  );
}
