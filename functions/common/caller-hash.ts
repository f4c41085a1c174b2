import { createHash } from 'node:crypto';

/**
 * A stable pseudonym of a user's `sub` for log lines: the first 16 hex digits of its SHA-256. Lines of one user can
 * be followed without the logs holding the raw sub (nor, ever, the e-mail): the HTTP edge logs it as `caller`, and
 * every other log line about a user does the same (issue 26: no raw user id in logs).
 */
export function callerHash(sub: string): string {
  return createHash('sha256').update(sub).digest('hex').slice(0, 16);
}
