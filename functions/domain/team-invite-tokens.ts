import { createHash, randomBytes } from 'node:crypto';

/**
 * An invitation link's secret (issue 37 §7 "invitation links are unguessable"; docs/teams.md "Invitations"): 256
 * random bits, base64url (43 characters), shown once in the link; the table keeps only its SHA-256, so a read of the
 * table cannot join anyone. A fast hash is enough: the token has 256 bits of entropy, nothing to guess or brute-force
 * (unlike a password).
 */

/** Random bytes in a token: 32 (256 bits). */
export const INVITE_TOKEN_BYTES = 32;
/** A token as the routes take it: 43 base64url characters. */
export const INVITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new token (crypto.randomBytes, a CSPRNG: https://nodejs.org/api/crypto.html#cryptorandombytessize-callback). */
export function newInviteToken(): string {
  return randomBytes(INVITE_TOKEN_BYTES).toString('base64url');
}

/** The token's SHA-256, 64 lower-case hex characters: its lookup key and all the table holds of it. */
export function inviteTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
