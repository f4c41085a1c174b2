import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The header CloudFront adds to every request it forwards to the API (its origin custom header), carrying a value
 * generated at deploy (a Secrets Manager secret); a viewer's own header of that name is replaced by CloudFront.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** The variable that holds the expected value in the cloud; unset locally, where no CloudFront exists. */
export const ORIGIN_VERIFY_VARIABLE = 'ORIGIN_VERIFY_SECRET';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a request reached the API through CloudFront (and so through its web ACL): true when no expected value is
 * configured (local stack, tests), else when the header holds exactly that value (compared in constant time).
 * This is what keeps the execute-api endpoint closed to direct calls without a custom domain (docs/architecture.md,
 * cloud).
 *
 * @param headers the event's headers (API Gateway lower-cases their names in payload v2)
 */
export function cameThroughCloudFront(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  expected: string | undefined = process.env[ORIGIN_VERIFY_VARIABLE],
): boolean {
  if (!expected) return true;
  const actual = headers?.[ORIGIN_VERIFY_HEADER];
  return actual !== undefined && timingSafeEqual(digest(actual), digest(expected));
}
