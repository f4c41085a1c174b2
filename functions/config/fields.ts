import * as z from 'zod/mini';
import { SECRET_PLACEHOLDER } from '../common/secret-values';

/** The field types the settings groups share (`functions/config/*.ts`). */

/** An optional string: blank (after trimming) counts as unset. */
export const optionalString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((v) => (v === '' ? undefined : v)),
  ),
);

/** A positive whole number, `fallback` when unset. */
export const positiveInt = (fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.positive()), fallback);

/**
 * A secret: blank or still {@link SECRET_PLACEHOLDER} (a freshly deployed secret, docs/deploy.md) counts as
 * missing.
 */
export const secretString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((v) => (v === '' || v === SECRET_PLACEHOLDER ? undefined : v)),
  ),
);

/** A required, non-empty name (a table, a bucket). */
export const requiredName = z.string().check(z.minLength(1));

/**
 * Where the function runs: `cloud` when STAGE or AWS_LAMBDA_FUNCTION_NAME (set by the Lambda runtime itself) is
 * set, else `local` (the local stack, tests).
 */
export function runtimeOf(env: { STAGE?: string; AWS_LAMBDA_FUNCTION_NAME?: string }): 'cloud' | 'local' {
  return env.STAGE || env.AWS_LAMBDA_FUNCTION_NAME ? 'cloud' : 'local';
}
