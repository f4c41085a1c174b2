/**
 * Credit rules (docs/product-spec.md §1, §9; docs/architecture.md §2, §4). 1 credit = 1 headshot; a generation reserves 6 credits for 6
 * headshots and every headshot not delivered is refunded.
 */

/** Credits every new user receives, exactly once (docs/product-spec.md §1 "New users get 6 free credits"). */
export const SIGNUP_BONUS_CREDITS = 6;
/** Credits one generation reserves: 6 headshots at 1 credit each (docs/product-spec.md §9). */
export const GENERATION_COST = 6;
/**
 * Credits one headshot costs by its resolution (docs/decisions/009-high-resolution.md): 1 as the spec says, 2 for
 * the high-resolution option (its canvas has 2.64 × the pixels OpenAI bills). The server decides; the SPA shows it.
 */
export const CREDITS_PER_HEADSHOT = { standard: 1, high: 2 } as const;
/** Below this balance the UI warns "Running low on credits!" (docs/product-spec.md §9 low-credit threshold: under 6). */
export const LOW_CREDIT_THRESHOLD = 6;

/**
 * Why a ledger entry exists. `refund` gives back credits of a generation that did not deliver; `reversal` takes back
 * credits of a purchase whose payment was refunded or disputed.
 */
export type LedgerReason =
  | 'signup_bonus'
  | 'purchase'
  | 'generation'
  | 'refund'
  | 'reversal'
  /** Credits a reversal took back and a won dispute or a failed refund gives back. */
  | 'reversal_restored'
  /** Paid out of credits received, towards what the account owed (`creditsOwed`); always negative. */
  | 'debt_settlement';

/**
 * What a receipt of `received` credits pays towards `owed` credits owed (docs/architecture.md §2: a reversal shortfall
 * is settled from the next credits the customer receives): all of the debt if it can, else all of the receipt.
 */
export function settlement(owed: number, received: number): number {
  return Math.max(0, Math.min(owed, received));
}

/** A spend larger than the balance (docs/product-spec.md §5: "Spending credits fails with 'Insufficient credits'"). */
export class InsufficientCreditsError extends Error {
  override readonly name = 'InsufficientCreditsError';
  constructor(
    readonly balance: number,
    readonly required: number,
  ) {
    super('Insufficient credits');
  }
}

/** The user record does not exist (docs/product-spec.md §8 "User not found"). */
export class UserNotFoundError extends Error {
  override readonly name = 'UserNotFoundError';
  constructor() {
    super('User not found');
  }
}

/** The display name the spec greets with: the part of the e-mail before '@' (docs/product-spec.md §2 Dashboard). */
export function displayNameFromEmail(email: string): string {
  const local = email.split('@')[0]?.trim();
  return local ? local : email;
}

/**
 * Validates a credit amount: a positive whole number of credits.
 *
 * @throws {RangeError} for zero, negative, fractional or unsafe amounts.
 */
export function assertCreditAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`Invalid credit amount: ${amount}`);
}
