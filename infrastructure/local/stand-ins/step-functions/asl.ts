/*
 * The parts of Amazon States Language the local Step Functions stand-in reads itself (docs/architecture.md §4):
 * walking every state, nested Map and Parallel states included, and AWS's timeout defaults.
 */

/** The parts of ASL the stand-in reads; aws-local-stepfunctions validates the rest. */
export interface AslState {
  Type?: string;
  Resource?: unknown;
  InputPath?: string | null;
  Parameters?: unknown;
  TimeoutSeconds?: number;
  TimeoutSecondsPath?: string;
  HeartbeatSeconds?: number;
  HeartbeatSecondsPath?: string;
  Iterator?: AslMachine;
  ItemProcessor?: AslMachine;
  Branches?: AslMachine[];
}
export interface AslMachine {
  States?: Record<string, AslState>;
  TimeoutSeconds?: number;
}

// Node's setTimeout overflows above 2^31-1 ms (and then fires at once), so longer timeouts are capped (~24.8 days).
const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export function* allStates(machine: AslMachine): Generator<[string, AslState]> {
  for (const [name, state] of Object.entries(machine.States ?? {})) {
    yield [name, state];
    const inner = state.ItemProcessor ?? state.Iterator;
    if (inner) yield* allStates(inner);
    for (const branch of state.Branches ?? []) yield* allStates(branch);
  }
}

/*
 * The library gives a Task without TimeoutSeconds 60 s, where AWS gives it 99999999 s (no limit in practice): our
 * image tasks run for minutes, so the AWS default is made explicit. Every timeout is capped to what a timer can hold.
 */
export function applyAwsTimeoutDefaults(machine: AslMachine): void {
  if (machine.TimeoutSeconds !== undefined)
    machine.TimeoutSeconds = Math.min(machine.TimeoutSeconds, MAX_TIMER_SECONDS);
  for (const [, state] of allStates(machine)) {
    if (state.Type === 'Task' && state.TimeoutSecondsPath === undefined) {
      state.TimeoutSeconds = Math.min(state.TimeoutSeconds ?? MAX_TIMER_SECONDS, MAX_TIMER_SECONDS);
    }
  }
}

/** The callback pattern of the Lambda integration: invoke, then wait for SendTaskSuccess/SendTaskFailure. */
export const LAMBDA_INVOKE_CALLBACK = 'arn:aws:states:::lambda:invoke.waitForTaskToken';

/**
 * What a callback Task's local handler receives: its evaluated Parameters, and its `TimeoutSecondsPath` and
 * `HeartbeatSecondsPath` values when it has them.
 */
export interface CallbackTaskInput {
  Parameters: unknown;
  TimeoutSeconds?: unknown;
  HeartbeatSeconds?: unknown;
}

/**
 * Rewrites each callback Task (`lambda:invoke.waitForTaskToken`) so its handler gets a {@link CallbackTaskInput}.
 * AWS reads `TimeoutSecondsPath`/`HeartbeatSecondsPath` from the state input, where the library would read the
 * former from the Task's evaluated Parameters and ignores the latter; evaluating them beside the Parameters gives
 * the handler both values (it keeps the token's heartbeat and expiry) and the library the timeout it enforces.
 * Runs after validation: the definition AWS sees is the one validated.
 *
 * @throws {Error} for a callback Task with `InputPath` and a `*SecondsPath` (the local runner would read the
 *   path from the filtered input, AWS from the state input).
 */
export function wrapCallbackTasks(machine: AslMachine): void {
  for (const [name, state] of allStates(machine)) {
    if (state.Type !== 'Task' || state.Resource !== LAMBDA_INVOKE_CALLBACK) continue;
    if (state.InputPath !== undefined && (state.TimeoutSecondsPath ?? state.HeartbeatSecondsPath)) {
      throw new Error(
        `Task "${name}": InputPath with TimeoutSecondsPath/HeartbeatSecondsPath is not supported by the local runner`,
      );
    }
    const wrapped: Record<string, unknown> =
      state.Parameters === undefined ? { 'Parameters.$': '$' } : { Parameters: state.Parameters };
    if (state.TimeoutSecondsPath !== undefined) {
      wrapped['TimeoutSeconds.$'] = state.TimeoutSecondsPath;
      state.TimeoutSecondsPath = '$.TimeoutSeconds';
    }
    if (state.HeartbeatSecondsPath !== undefined) {
      wrapped['HeartbeatSeconds.$'] = state.HeartbeatSecondsPath;
      delete state.HeartbeatSecondsPath;
    }
    state.Parameters = wrapped;
  }
}
