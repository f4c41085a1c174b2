/*
 * Which errors a handler throws as an expected outcome rather than as trouble (issue 26: alarms page on trouble
 * only). The workflow turns each of them into a business result through its Retry/Catch/Choice paths
 * (statemachines/generation.asl.json), yet Lambda still counts the invocation in `Errors`: withLambdaContext
 * (./lambda-context.ts) emits one `ExpectedErrors` metric for each, timestamped at the invocation's start as Lambda
 * timestamps its own metrics ("The timestamp on a metric reflects when the function was invoked",
 * https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics.html), and the per-function alarm counts
 * `Errors - ExpectedErrors` (infrastructure/constructs/reliability.ts). Timeouts, out-of-memory ends and init
 * failures never reach the handler, so they still count.
 */

/** Error name → why it is an outcome, not an incident (and what watches it instead, if anything). */
export const EXPECTED_ERRORS: Readonly<Record<string, string>> = {
  NoUsablePhotosError:
    'PrepareReferences found no usable photo: the generation fails with the reason shown to the customer, refunded.',
  NoHeadshotsError:
    'Finalize: no slot delivered (the provider refused all six, likeness, deadline): everything is refunded.',
  LikenessRejected:
    'A headshot did not look like the customer: the slot is made once more, then refunded (the guarantee).',
  LikenessStopped:
    'The likeness cap stopped the generation: the remaining slots are refunded without a call.',
  ProviderCallCapReached: "The account's provider calls for the day are used up: the slot is refunded.",
  AdmissionDeadlineError:
    "The generation's deadline passed while the slot waited in line: the slot is refunded.",
  GenerationClosedError:
    'The generation was compensated while this task ran: nothing is saved, nothing is lost.',
  ProviderRejectedError: 'The provider refused the request (its policy): the slot is refunded.',
  ProviderUnavailableError:
    'The provider answered 5xx: the slot goes back in line (bounded); the ProviderFailures alarm watches the rate.',
  ProviderTimeoutError:
    'The provider call timed out: the slot goes back in line once; the ProviderFailures alarm watches the rate.',
  ProviderInvalidOutputError:
    'The provider returned an unusable image: the slot is refunded; the ProviderFailures alarm watches the rate.',
  ProviderMisconfiguredError:
    'No key or a refused configuration: the slot is refunded; ProviderMisconfigured pages.',
  TransactionConflictException:
    'Two writers met on an item: the workflow retries the task (Retry with backoff, 6 attempts).',
  TransactionThrottledError:
    'A throttled transaction: the workflow retries it; the DynamoDB throttle alarm watches.',
  ProvisionedThroughputExceededException: 'DynamoDB throttled: retried; the DynamoDB throttle alarm watches.',
  ThrottlingException: 'An AWS API throttled: the workflow retries the task.',
  RequestLimitExceeded: "DynamoDB's account request limit: retried; the DynamoDB throttle alarm watches.",
};

/** Whether `error` is an expected outcome ({@link EXPECTED_ERRORS}), judged by its `name`. */
export function isExpectedError(error: unknown): error is Error {
  return error instanceof Error && Object.hasOwn(EXPECTED_ERRORS, error.name);
}
