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
 * Whether a request reached the API through CloudFront (and so through its web ACL): when the header holds exactly
 * the expected value (compared in constant time). With no expected value configured it fails closed in the cloud — a
 * deployed function (`STAGE` or the Lambda runtime's `AWS_LAMBDA_FUNCTION_NAME` set) answers every request 403
 * rather than serve the execute-api endpoint to anyone — and passes where no CloudFront exists: the local stack and
 * tests (neither set) and LocalStack (`AWS_ENDPOINT_URL` set). This is what keeps the execute-api endpoint closed to
 * direct calls without a custom domain (docs/architecture.md, cloud).
 *
 * @param headers the event's headers (API Gateway lower-cases their names in payload v2)
 * @param env where the function runs (tests)
 */
export function cameThroughCloudFront(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  expected: string | undefined = process.env[ORIGIN_VERIFY_VARIABLE],
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (!expected) return !(env.STAGE || env.AWS_LAMBDA_FUNCTION_NAME) || Boolean(env.AWS_ENDPOINT_URL);
  const actual = headers?.[ORIGIN_VERIFY_HEADER];
  return actual !== undefined && timingSafeEqual(digest(actual), digest(expected));
}
