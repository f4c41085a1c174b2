import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DYNAMODB_THROTTLING_ERRORS } from '../../functions/adapters/support/dynamodb-throttling';
import { catalogue } from '../../functions/catalogue';
import { functionArnKey, REPO_ROOT } from '../../infrastructure/constructs/naming';
import { allStates, type AslMachine } from '../../infrastructure/local/stand-ins/step-functions/asl';

/*
 * A DynamoDB throttle is retried by the workflow, never refunded at once (docs/architecture.md §4, "Throttled
 * table"): every Task of the generation definition whose function reaches the table retries DynamoDB's throttling
 * errors with backoff and full jitter, before any catch-all retrier and so before its Catch.
 */

interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  BackoffRate?: number;
  MaxAttempts?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: string;
}
type TaskState = { Type?: string; Parameters?: { FunctionName?: string }; Retry?: Retrier[] };

const text = readFileSync(join(REPO_ROOT, 'statemachines/generation.asl.json'), 'utf8');
// Numeric substitutions (`"TimeoutSeconds": ${ExecutionTimeoutSeconds}`) are not JSON until substituted; the quoted
// ones (`"${GenerationBuildPromptFunctionArn}"`) are kept, they name the function.
const definition = JSON.parse(text.replace(/(?<!")\$\{[^}]+\}(?!")/g, '0')) as AslMachine;
const functionOfKey = new Map(catalogue.map((f) => [`\${${functionArnKey(f.name)}}`, f]));

const tasks = [...allStates(definition)].filter(([, state]) => state.Type === 'Task') as [
  string,
  TaskState,
][];
const functionOf = (state: TaskState) => functionOfKey.get(state.Parameters?.FunctionName ?? '');
const tableTasks = tasks.filter(([, state]) => (functionOf(state)?.access.table?.length ?? 0) > 0);

describe('the generation workflow and a throttled table', () => {
  it('invokes only catalogue functions, so the table access below is known for every task', () => {
    for (const [name, state] of tasks) expect(functionOf(state), name).toBeDefined();
  });

  it('has tasks that reach DynamoDB (the check below is not vacuous)', () => {
    expect(tableTasks.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'PrepareReferences',
        'BuildPrompt',
        'CallProvider',
        'FinishHeadshot',
        'Finalize',
        'RefundCredits',
      ]),
    );
  });

  it.each(tableTasks)(
    '%s retries every DynamoDB throttling error with backoff and full jitter',
    (_, state) => {
      const retriers = state.Retry ?? [];
      const index = retriers.findIndex((r) =>
        DYNAMODB_THROTTLING_ERRORS.every((e) => r.ErrorEquals.includes(e)),
      );
      expect(index, 'a retrier naming every throttling error').toBeGreaterThanOrEqual(0);
      const retrier = retriers[index]!;
      expect(retrier.IntervalSeconds).toBeGreaterThanOrEqual(1);
      expect(retrier.BackoffRate).toBeGreaterThan(1);
      expect(retrier.MaxAttempts).toBeGreaterThanOrEqual(3);
      expect(retrier.MaxDelaySeconds).toBeGreaterThan(retrier.IntervalSeconds!);
      expect(retrier.JitterStrategy).toBe('FULL');
      // Retriers are tried in order: no catch-all (States.ALL, States.TaskFailed) may come first and take the throttle
      // with its own, shorter, budget.
      const catchAll = retriers.findIndex((r) =>
        r.ErrorEquals.some((e) => e === 'States.ALL' || e === 'States.TaskFailed'),
      );
      if (catchAll >= 0) expect(index).toBeLessThan(catchAll);
    },
  );
});
