import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { optionalString, runtimeOf } from './fields';

/**
 * Where this function runs and how it reaches AWS: read by whatever makes an AWS SDK client (adapters/support/aws.ts and the
 * other adapters with a client of their own). The CDK stack sets STAGE on every function; the Lambda runtime sets
 * AWS_REGION and AWS_LAMBDA_FUNCTION_NAME; the local stack sets the endpoint overrides (docs/architecture.md, local
 * stack).
 */
const runtime = defineSettings(
  z.pipe(
    z.object({
      /** The AWS region of every client (default `us-east-1`). */
      AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
      /** The deployment stage (`dev`, `prod`, …); unset in the local stack. `prod` refuses the offline image provider. */
      STAGE: optionalString,
      /** Set by the Lambda runtime itself: with STAGE, how a handler knows it runs in the cloud. */
      AWS_LAMBDA_FUNCTION_NAME: optionalString,
      /** Endpoint override for every AWS SDK client (LocalStack, the local stack's emulators); the SDK reads it. */
      AWS_ENDPOINT_URL: z.optional(z.url()),
      /** s3rver and LocalStack need path-style bucket addressing (default false). */
      S3_FORCE_PATH_STYLE: z._default(z.stringbool(), false),
      /** The logger's level (common/logger.ts reads it; checked here so a typo fails loudly). Default `INFO`. */
      LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
    }),
    z.transform((env) => ({
      ...env,
      /** `cloud` when STAGE or AWS_LAMBDA_FUNCTION_NAME is set (a deployed function), else `local`. */
      RUNTIME: runtimeOf(env),
    })),
  ),
);

/** The runtime settings: {@link runtime}. */
export type RuntimeSettings = ReturnType<typeof runtime.load>;
/** Region, stage, endpoint overrides of this execution environment (parsed once per cold start). */
export const runtimeSettings = runtime.load;
/** Parses an environment's runtime settings. @throws {ConfigError} naming each bad variable. */
export const parseRuntimeSettings = runtime.parse;
