import { EXECUTION_ENDED_RULE, executionEndedPattern } from '../../../constructs/execution-ended-rule';
import type { LocalLog } from '../../support/log';
import {
  deadLetterFile,
  type AsyncInvokeSettings,
  type AsyncInvoker,
  type OnFailureDestination,
} from '../lambda/async-invoke';
import { localStateMachineArn } from '../step-functions/state-machines';

/*
 * The local stand-in for EventBridge's default event bus (docs/architecture.md §5): services of the local stack put
 * their events on it (the Step Functions stand-in, its execution status changes), and every rule whose event pattern
 * matches hands the event to its Lambda target the way EventBridge does — an asynchronous invocation, so the
 * function's own retries and on-failure destination apply (stand-ins/lambda/async-invoke.ts).
 */

/** An event on the bus: EventBridge's envelope (`version`, `id`, `account`, `time`, … besides these). */
export interface BusEvent {
  source: string;
  'detail-type': string;
  detail: unknown;
}

/**
 * An event pattern as the rule JSON spells it, with the one kind of filter our rules use: a list of exact values
 * (an event field matches when it equals one of them, or, for an array field, when any element does), nested objects
 * for nested fields. https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns.html
 */
export interface EventPattern {
  [field: string]: readonly (string | number | boolean | null)[] | EventPattern;
}

/** A rule with one Lambda target. */
export interface LocalRule {
  /** Named in log lines. */
  name: string;
  pattern: EventPattern;
  target: {
    functionName: string;
    /** The function's asynchronous-invocation settings. */
    asyncInvoke: AsyncInvokeSettings;
    /** Where events go whose every run failed (the dead-letter queue). */
    onFailure: OnFailureDestination;
  };
}

/** The running local bus. */
export interface LocalEventBus {
  /** Matches `event` against every rule and hands it to each match's target; never throws. */
  put(event: BusEvent): void;
  /** Resolves once no target runs or waits for a retry. */
  idle(): Promise<void>;
  /** Stops delivering (see {@link AsyncInvoker.stop}). */
  stop(): Promise<void>;
}

/**
 * Whether `event` matches `pattern`: every field the pattern names must match (EventBridge's rule semantics for
 * exact-value lists; an absent field never matches).
 *
 * @throws {Error} for a filter other than exact values (`prefix`, `anything-but`, …): this stand-in does not run them,
 *   and a rule that silently matched nothing locally would hide the cloud's behaviour.
 */
export function matchesPattern(pattern: EventPattern, event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = (event as Record<string, unknown>)[field];
    if (!Array.isArray(expected)) return matchesPattern(expected as EventPattern, actual);
    const values: readonly unknown[] = expected;
    if (values.some((value) => typeof value === 'object' && value !== null)) {
      throw new Error(`Unsupported event pattern filter in "${field}": only exact values run locally`);
    }
    const candidates = Array.isArray(actual) ? actual : [actual];
    return candidates.some((candidate) => candidate !== undefined && values.includes(candidate));
  });
}

/** Starts the local bus with `rules`; their targets run through `invoker`. */
export function startEventBus(options: {
  rules: readonly LocalRule[];
  invoker: AsyncInvoker;
  log: LocalLog;
}): LocalEventBus {
  const { rules, invoker, log } = options;
  return {
    put(event) {
      for (const rule of rules) {
        let matched: boolean;
        try {
          matched = matchesPattern(rule.pattern, event);
        } catch (error) {
          log.error(`rule ${rule.name}: ${(error as Error).message}`);
          continue;
        }
        if (!matched) continue;
        const { functionName, asyncInvoke, onFailure } = rule.target;
        log.info(`rule ${rule.name}: ${event['detail-type']} → ${functionName}`);
        try {
          invoker.invoke(functionName, event, asyncInvoke, onFailure);
        } catch (error) {
          // EventBridge does not retry a target that does not exist; without a target DLQ the event is dropped
          // (the rule's FailedInvocations metric counts it).
          log.error(`rule ${rule.name}: event dropped, ${(error as Error).message}`);
        }
      }
    },
    idle: () => invoker.idle(),
    stop: () => invoker.stop(),
  };
}

/**
 * The execution-ended rule (infrastructure/constructs/execution-ended-rule.ts, the definition the CDK rule is built
 * from) for the local state machine of its name: FAILED, TIMED_OUT and ABORTED generation executions go to the
 * compensator; events its every run failed on go to `<deadLetterDir>/<function>.jsonl`.
 */
export function executionEndedRule(options: {
  region: string;
  accountId?: string;
  deadLetterDir: string;
  log: LocalLog;
}): LocalRule {
  const { region, accountId = '000000000000', deadLetterDir, log } = options;
  const arn = localStateMachineArn(EXECUTION_ENDED_RULE.stateMachine, { region, accountId });
  const functionName = EXECUTION_ENDED_RULE.targetFunction;
  return {
    name: EXECUTION_ENDED_RULE.id,
    pattern: executionEndedPattern(arn),
    target: {
      functionName,
      asyncInvoke: EXECUTION_ENDED_RULE.asyncInvoke,
      onFailure: deadLetterFile(deadLetterDir, functionName, log),
    },
  };
}
