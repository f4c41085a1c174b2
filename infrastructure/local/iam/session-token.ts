/*
 * Whose role signed an S3 request: presigned URLs and POST policies are authorized by S3 when they are used, under
 * the signer's identity. The local stack's functions share one access key (stand-ins/s3/s3rver.ts), so inside an
 * invocation their S3 client signs with a session token naming the function (middleware.ts), as an assumed role's
 * session token names its session; the S3 stand-in (stand-ins/s3/front.ts) asks the stack's IAM check about the
 * presigned request under that function's role.
 */

const PREFIX = 'local-function.';

/** The session token of a function's S3 requests. */
export function sessionTokenOf(functionName: string): string {
  return `${PREFIX}${functionName}`;
}

/** The function a session token names, or undefined for any other token (or none). */
export function functionOfSessionToken(token: string | null | undefined): string | undefined {
  return token?.startsWith(PREFIX) ? token.slice(PREFIX.length) : undefined;
}
