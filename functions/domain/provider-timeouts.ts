import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  DEFAULT_OPENAI_IMAGE_QUALITY,
  openAiImageModel,
  worstCaseSeconds,
  type ImageQuality,
} from './openai-image-models';

/**
 * The timeouts of one provider call, from the configured model and quality (docs/architecture.md §4): the OpenAI
 * client gives up first, as a named, retryable ProviderTimeoutError; the call Lambda (CallProvider) outlives it by
 * the work around the call (the generation and references read, the call counted, the image written to `work/`); the
 * workflow's Task outlives the Lambda, so Step Functions never abandons a running call. FinishHeadshot (decode,
 * likeness, two encodes, two uploads, one transaction) has fixed timeouts of its own; a lease covers both tasks.
 */
export interface ProviderTimeouts {
  /** The OpenAI client's timeout, in seconds. */
  clientSeconds: number;
  /** The CallProvider function's Lambda timeout, in seconds. */
  lambdaSeconds: number;
  /** The CallProvider Task's `TimeoutSeconds` in the workflow (`${GenerateHeadshotTimeoutSeconds}` in the ASL). */
  taskSeconds: number;
  /**
   * The longest an admitted slot may take from CallProvider's start to FinishHeadshot's end, in seconds: the two
   * Tasks' timeouts. What an admission lease must outlive.
   */
  slotSeconds: number;
}

/** Lambda's largest timeout, in seconds (https://docs.aws.amazon.com/lambda/latest/dg/configuration-timeout.html). */
export const LAMBDA_MAX_TIMEOUT_SECONDS = 900;
/** Headroom over the documented worst case: a slow day at OpenAI is 1.5× its usual worst. */
export const WORST_CASE_HEADROOM = 1.5;
/**
 * Time the call Lambda needs besides the provider's answer, in seconds: a few reads and writes and one upload (0.2 s
 * for a 1024 px JPEG, 2.3 s for a 3840 px PNG measured locally, docs/decisions/008-call-provider-memory.md), with room
 * for a cold start and a slow S3 request.
 */
export const AFTER_CALL_SECONDS = 60;
/**
 * FinishHeadshot's Lambda timeout, in seconds: the likeness check and the encodes take 1-10 s warm, a cold start that
 * loads the face models a few more (docs/decisions/002-identity-model.md); the rest is margin. The largest image, an
 * upscale edit's 2560×3200 (issue 36), was measured on a 2-core dev machine: decode and the four encodes 0.8-2.2 s
 * (3.1-4.2 s for a transparent one, PNG square and portrait), peak RSS 337 MB, well inside this timeout and the
 * function's 2,048 MB (catalogue.ts VISION_MEMORY_MB), so neither figure changes.
 */
export const FINISH_LAMBDA_SECONDS = 60;
/** Time the Task allows beyond the Lambda's timeout, in seconds (invoke overhead, a cold start). */
export const TASK_MARGIN_SECONDS = 30;
/** FinishHeadshot's Task `TimeoutSeconds` (`${FinishHeadshotTimeoutSeconds}` in the ASL). */
export const FINISH_TASK_SECONDS = FINISH_LAMBDA_SECONDS + TASK_MARGIN_SECONDS;
/** The largest client timeout, in seconds, that keeps the call Lambda within Lambda's limit. */
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
 *   {@link MAX_CLIENT_TIMEOUT_SECONDS} (the call Lambda would exceed Lambda's 900 s)
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
        `(the call Lambda adds ${AFTER_CALL_SECONDS} s and Lambda allows at most ${LAMBDA_MAX_TIMEOUT_SECONDS} s)`,
    );
  }
  const lambdaSeconds = clientSeconds + AFTER_CALL_SECONDS;
  const taskSeconds = lambdaSeconds + TASK_MARGIN_SECONDS;
  return { clientSeconds, lambdaSeconds, taskSeconds, slotSeconds: taskSeconds + FINISH_TASK_SECONDS };
}

/**
 * The slot's timeouts for a handlers' environment (OPENAI_IMAGE_MODEL, OPENAI_IMAGE_QUALITY, OPENAI_TIMEOUT_SECONDS;
 * defaults when unset): the local stacks derive what the CDK stack derives from its context.
 *
 * @throws {TimeoutConfigError} as {@link providerTimeouts}
 */
export function providerTimeoutsOf(env: Readonly<Record<string, string | undefined>>): ProviderTimeouts {
  const quality = (env.OPENAI_IMAGE_QUALITY ?? DEFAULT_OPENAI_IMAGE_QUALITY) as ImageQuality;
  const override = env.OPENAI_TIMEOUT_SECONDS ? Number(env.OPENAI_TIMEOUT_SECONDS) : undefined;
  return providerTimeouts(env.OPENAI_IMAGE_MODEL ?? DEFAULT_OPENAI_IMAGE_MODEL, quality, override);
}

/**
 * The CallProvider Task's `TimeoutSeconds` for a handlers' environment (see {@link providerTimeoutsOf}): the local
 * Step Functions substitutes it as the CDK stack does.
 */
export function slotTaskTimeoutSeconds(env: Readonly<Record<string, string | undefined>>): number {
  return providerTimeoutsOf(env).taskSeconds;
}
