/*
 * The parts of Amazon States Language the local Step Functions stand-in reads itself (docs/architecture.md §4):
 * walking every state, nested Map and Parallel states included, and AWS's timeout defaults.
 */

/** The parts of ASL the stand-in reads; aws-local-stepfunctions validates the rest. */
export interface AslState {
  Type?: string;
  Resource?: unknown;
  TimeoutSeconds?: number;
  TimeoutSecondsPath?: string;
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
