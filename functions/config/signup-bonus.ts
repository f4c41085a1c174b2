import { defineSettings } from './settings';
import { secretString } from './fields';
import * as z from 'zod/mini';

/**
 * The secret key of the sign-up bonus markers (domain/signup-bonus.ts `bonusKey`). In the cloud a generated Secrets
 * Manager secret that common/secrets.ts fills before the handler reads it (only into the functions that create
 * users); locally the local stack sets a fixed dev value. Changing it lets everyone claim the bonus again: never
 * rotate it.
 */
const signupBonus = defineSettings(
  z.object({
    /** The HMAC key; blank or the placeholder counts as unset. */
    SIGNUP_BONUS_PEPPER: secretString,
  }),
);

/**
 * The pepper of this execution environment.
 *
 * @throws {Error} when SIGNUP_BONUS_PEPPER is unset: creating a user without it would write a marker nobody can
 * match later, so no user is created (the caller's request fails and is retried).
 */
export function signupBonusPepper(): string {
  const pepper = signupBonus.load().SIGNUP_BONUS_PEPPER;
  if (!pepper) throw new Error('SIGNUP_BONUS_PEPPER is not configured');
  return pepper;
}
