import { createHash, createHmac } from 'node:crypto';
import { firstNormalisation, normaliseEmail } from './mailbox';

/**
 * The sign-up bonus is once per person (docs/architecture.md §8 "Money"): a person is approximated by their
 * mailbox, the normalised e-mail address (domain/mailbox.ts), so deleting an account and signing up again with
 * another spelling of the same mailbox — capitals, a trailing dot, a Unicode domain, a sub-address, a provider's
 * other domain — does not earn a second bonus.
 */

export { normaliseEmail } from './mailbox';

/**
 * The key of a person's bonus marker: HMAC-SHA256 (hex) of the normalised address keyed with the secret pepper
 * (Secrets Manager in the cloud, a fixed dev value locally). Unlike a plain hash, the marker that outlives a deleted
 * account cannot be matched to an address by hashing candidate addresses without the pepper (GDPR Recital 26: a
 * plain hash of an identifier is still personal data). Stable for one normalised address and one pepper.
 *
 * @param pepper the secret key (SIGNUP_BONUS_PEPPER, functions/config/signup-bonus.ts); never logged.
 * @returns 64 lower-case hex characters.
 * @throws {Error} when `pepper` is empty (an unkeyed HMAC would be as guessable as the old hash).
 */
export function bonusKey(email: string, pepper: string): string {
  if (!pepper) throw new Error('The sign-up bonus pepper is empty');
  return createHmac('sha256', pepper)
    .update(`headshot-studio:signup-bonus:${normaliseEmail(email)}`)
    .digest('hex');
}

/**
 * The key of a marker written before the pepper: unsalted SHA-256 (hex) of the normalised address. Only read (never
 * written) so a person who claimed the bonus before the change cannot claim it again.
 */
export function legacyBonusKey(email: string): string {
  return createHash('sha256')
    .update(`headshot-studio:signup-bonus:${firstNormalisation(email)}`)
    .digest('hex');
}

/**
 * The key a marker of this address got before the mailbox rules of domain/mailbox.ts (HMAC as {@link bonusKey}, of
 * the first normalisation), or `undefined` when it is {@link bonusKey}'s. Only read (never written), so a person who
 * claimed the bonus as `jane-shop@yahoo.com` before `-` was folded cannot claim it again with the same address.
 *
 * @throws {Error} when `pepper` is empty.
 */
export function previousBonusKey(email: string, pepper: string): string | undefined {
  if (!pepper) throw new Error('The sign-up bonus pepper is empty');
  const before = firstNormalisation(email);
  if (before === normaliseEmail(email)) return undefined;
  return createHmac('sha256', pepper).update(`headshot-studio:signup-bonus:${before}`).digest('hex');
}

/**
 * Whether a user got the sign-up bonus: `granted`; `already-claimed` by an earlier account of the same person; or
 * `disposable-address`, withheld because the address is at a disposable e-mail service
 * (functions/domain/disposable-addresses.ts).
 */
export type SignupBonus = 'granted' | 'already-claimed' | 'disposable-address';

/** The reasons a new account starts without the bonus, as stored on the user item and answered by `GET /api/me`. */
export const WITHHELD_BONUS_REASONS = ['already-claimed', 'disposable-address'] as const;

/** The stored value read back: an unknown or missing one is `granted` (items written before the field existed). */
export function signupBonusOf(value: unknown): SignupBonus {
  return (WITHHELD_BONUS_REASONS as readonly unknown[]).includes(value) ? (value as SignupBonus) : 'granted';
}
