import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  DEFAULT_OPENAI_IMAGE_QUALITY,
  openAiImageModel,
  worstCaseSeconds,
  type ImageQuality,
} from './openai-image-models';

/**
 * The timeouts of one provider call, from the configured model and quality (docs/architecture.md §4): the OpenAI
 * client gives up first, as a named, retryable ProviderTimeoutError; the slot Lambda (GenerateHeadshot) outlives it
 * by the work after the call (decode, likeness, two encodes, two uploads, one transaction); the workflow's Task
 * outlives the Lambda, so Step Functions never abandons a running call.
 */
export interface ProviderTimeouts {
  /** The OpenAI client's timeout, in seconds. */
  clientSeconds: number;
  /** The GenerateHeadshot function's Lambda timeout, in seconds. */
  lambdaSeconds: number;
  /** The GenerateHeadshot Task's `TimeoutSeconds` in the workflow. */
  taskSeconds: number;
}

/** Lambda's largest timeout, in seconds (https://docs.aws.amazon.com/lambda/latest/dg/configuration-timeout.html). */
export const LAMBDA_MAX_TIMEOUT_SECONDS = 900;
/** Headroom over the documented worst case: a slow day at OpenAI is 1.5× its usual worst. */
export const WORST_CASE_HEADROOM = 1.5;
/** Time the slot Lambda needs after the provider answers, in seconds (likeness and encodes take 1-10 s; margin). */
export const AFTER_CALL_SECONDS = 60;
/** Time the Task allows beyond the Lambda's timeout, in seconds (invoke overhead, a cold start). */
export const TASK_MARGIN_SECONDS = 30;
/** The largest client timeout, in seconds, that keeps the slot Lambda within Lambda's limit. */
export const MAX_CLIENT_TIMEOUT_SECONDS = LAMBDA_MAX_TIMEOUT_SECONDS - AFTER_CALL_SECONDS;

/** A timeout the configuration asks for that Lambda cannot give. */
export class TimeoutConfigError extends Error {
  override readonly name = 'TimeoutConfigError';
}

/**
 * The timeouts for `model` at `quality`: the client waits the documented worst case × {@link WORST_CASE_HEADROOM}
 * (rounded up to 10 s), or `overrideSeconds` (OPENAI_TIMEOUT_SECONDS / `-c openaiTimeoutSeconds`) when given.
 * An unknown model gets the table's longest worst case.
 *
 * @throws {TimeoutConfigError} when the client timeout is not a whole number of seconds from 1 to
 *   {@link MAX_CLIENT_TIMEOUT_SECONDS} (the slot Lambda would exceed Lambda's 900 s)
 */
export function providerTimeouts(
  model: string,
  quality: ImageQuality,
  overrideSeconds?: number,
): ProviderTimeouts {
  const clientSeconds =
    overrideSeconds ??
    Math.ceil((worstCaseSeconds(openAiImageModel(model), quality) * WORST_CASE_HEADROOM) / 10) * 10;
  if (!Number.isInteger(clientSeconds) || clientSeconds < 1 || clientSeconds > MAX_CLIENT_TIMEOUT_SECONDS) {
    throw new TimeoutConfigError(
      `OpenAI timeout ${clientSeconds} s: a whole number of seconds from 1 to ${MAX_CLIENT_TIMEOUT_SECONDS} ` +
        `(the slot Lambda adds ${AFTER_CALL_SECONDS} s and Lambda allows at most ${LAMBDA_MAX_TIMEOUT_SECONDS} s)`,
    );
  }
  const lambdaSeconds = clientSeconds + AFTER_CALL_SECONDS;
  return { clientSeconds, lambdaSeconds, taskSeconds: lambdaSeconds + TASK_MARGIN_SECONDS };
}

/**
 * The GenerateHeadshot Task's `TimeoutSeconds` for a handlers' environment (OPENAI_IMAGE_MODEL, OPENAI_IMAGE_QUALITY,
 * OPENAI_TIMEOUT_SECONDS; defaults when unset): the local Step Functions substitutes it as the CDK stack does.
 */
export function slotTaskTimeoutSeconds(env: Readonly<Record<string, string | undefined>>): number {
  const quality = (env.OPENAI_IMAGE_QUALITY ?? DEFAULT_OPENAI_IMAGE_QUALITY) as ImageQuality;
  const override = env.OPENAI_TIMEOUT_SECONDS ? Number(env.OPENAI_TIMEOUT_SECONDS) : undefined;
  return providerTimeouts(env.OPENAI_IMAGE_MODEL ?? DEFAULT_OPENAI_IMAGE_MODEL, quality, override)
    .taskSeconds;
}
