/*
 * The one definition of the "execution ended" rule (docs/architecture.md §4, "Executions that end early"): which
 * Step Functions status-change events reach the compensator, and how their delivery is retried. The CDK Workflow and
 * Reliability constructs build the EventBridge rule, its Lambda target and the function's asynchronous-invocation
 * settings from it; the local stack's EventBridge stand-in matches and delivers with the very same values, so the
 * cloud and local paths cannot drift. No CDK import here: the local stack loads this file.
 */

/** `source` of every Step Functions service event (EventBridge reference, "AWS Step Functions events"). */
export const STATES_EVENT_SOURCE = 'aws.states';

/**
 * `detail-type` of the event Step Functions sends to the default bus whenever a Standard execution changes status
 * (https://docs.aws.amazon.com/step-functions/latest/dg/eventbridge-integration.html).
 */
export const EXECUTION_STATUS_CHANGE = 'Step Functions Execution Status Change';

/** The execution statuses a status-change event carries. */
export type ExecutionEventStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

/** The rule that runs the compensator for generation executions that ended without finishing their generation. */
export const EXECUTION_ENDED_RULE = {
  /** Construct id of the rule, and the name the local stand-in logs it by. */
  id: 'ExecutionEnded',
  description: 'Compensates generations whose execution failed, timed out or was stopped',
  /** The state machine whose executions it watches: `statemachines/<name>.asl.json`. */
  stateMachine: 'generation',
  /**
   * Timed-out and stopped executions never reach the definition's Catch, and FAILED is what is left when its own
   * compensation failed; SUCCEEDED (the definition compensated, or delivered) needs nothing.
   */
  statuses: ['FAILED', 'TIMED_OUT', 'ABORTED'] as const satisfies readonly ExecutionEventStatus[],
  /** The catalogue function EventBridge invokes (asynchronously, as it invokes every Lambda target). */
  targetFunction: 'generation-execution-ended',
  /**
   * The target's retry policy (EventBridge `RetryPolicy`): how often and how long EventBridge retries an event it
   * could not hand to Lambda (throttled or failed Invoke calls; a function error is not a delivery failure).
   * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-rule-retry-policy.html
   */
  delivery: { retryAttempts: 8, maxEventAgeSeconds: 24 * 3600 },
  /**
   * Lambda's asynchronous-invocation settings of the target function: a run that throws is run again
   * `retryAttempts` times (1 minute, then 2 minutes later), then its invocation record goes to the on-failure
   * destination, the dead-letter queue.
   * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html
   */
  asyncInvoke: { retryAttempts: 2, maxEventAgeSeconds: 6 * 3600 },
} as const;

/** An EventBridge event pattern in the rule JSON's own spelling (`detail-type`), exact-value lists only. */
export type ExecutionEndedPattern = {
  source: string[];
  'detail-type': string[];
  detail: { status: string[]; stateMachineArn: string[] };
};

/**
 * The rule's event pattern for the state machine `stateMachineArn` (a CloudFormation token in CDK, an ARN locally).
 */
export function executionEndedPattern(stateMachineArn: string): ExecutionEndedPattern {
  return {
    source: [STATES_EVENT_SOURCE],
    'detail-type': [EXECUTION_STATUS_CHANGE],
    detail: { status: [...EXECUTION_ENDED_RULE.statuses], stateMachineArn: [stateMachineArn] },
  };
}
