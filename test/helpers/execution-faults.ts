import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DescribeExecutionCommand, SFNClient, type ExecutionStatus } from '@aws-sdk/client-sfn';
import { expect } from 'vitest';
import { getGeneration } from '../../functions/adapters/generations';
import { getUser } from '../../functions/adapters/ledger';
import {
  LambdaFunctionError,
  parseFunctionName,
  type LambdaRuntime,
} from '../../infrastructure/local/stand-ins/lambda/runtime';
import type { InvocationRecord } from '../../infrastructure/local/stand-ins/lambda/async-invoke';
import { newUserWithPhotos } from './generation';
import type { GenerationStack } from './generation-stack';
import { expectLedgerBalanced, refundRefs } from './ledger';

/*
 * Fault injection for the execution-ended tests (test/integration/execution-ended-*.test.ts): a Lambda runtime
 * wrapper that, per user, makes a workflow function fail or answer slowly, and records every run of the
 * execution-ended compensator; plus the reads those tests assert with.
 */

export const COMPENSATOR = 'generation-execution-ended';
export type Fault = 'down' | 'slow';
/** Per user: which functions fail (`down` throws at once; `slow` answers after 8 s). */
export const faults = new Map<string, Partial<Record<string, Fault>>>();
/** Every run of the compensator: the user it was for, and its result or error type. */
export const compensatorRuns: { userId: string; status: string; outcome: unknown }[] = [];

function userOf(event: unknown): string | undefined {
  const e = event as { userId?: unknown; detail?: { input?: unknown } };
  if (typeof e.userId === 'string') return e.userId;
  if (typeof e.detail?.input !== 'string') return undefined;
  return (JSON.parse(e.detail.input) as { userId?: string }).userId;
}

/** The runtime with this file's faults, recording every compensator run. */
export function withFaults(runtime: LambdaRuntime): LambdaRuntime {
  return {
    ...runtime,
    async invoke(nameOrArn, event, options) {
      const name = parseFunctionName(nameOrArn) ?? nameOrArn;
      const userId = userOf(event) ?? '';
      const fault = faults.get(userId)?.[name];
      const record = (outcome: unknown) => {
        if (name !== COMPENSATOR) return;
        const { status } = (event as { detail: { status: string } }).detail;
        compensatorRuns.push({ userId, status, outcome });
      };
      if (fault === 'down') {
        const error = new LambdaFunctionError(name, {
          errorType: 'InjectedOutage',
          errorMessage: `${name} is down for this test`,
          trace: [],
        });
        record(error.payload.errorType);
        throw error;
      }
      if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, 8_000));
      try {
        const result = await runtime.invoke(nameOrArn, event, options);
        record(result);
        return result;
      } catch (error) {
        record(error instanceof LambdaFunctionError ? error.payload.errorType : String(error));
        throw error;
      }
    },
  };
}

export const executionArnOf = (id: string) =>
  `arn:aws:states:us-east-1:000000000000:execution:generation:${id}`;

export async function endedStatus(stack: GenerationStack, id: string): Promise<ExecutionStatus> {
  const sfn = new SFNClient({
    endpoint: stack.stepfunctions.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    for (;;) {
      const { status } = await sfn.send(new DescribeExecutionCommand({ executionArn: executionArnOf(id) }));
      if (status !== 'RUNNING') return status!;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    sfn.destroy();
  }
}

export async function userWithPhotos(stack: GenerationStack, userFaults: Partial<Record<string, Fault>>) {
  const created = await newUserWithPhotos(stack.gatewayUrl, ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg']);
  faults.set(created.user.sub, userFaults);
  return created;
}

/** The generation as the compensator left it, read from the table (the API's poll would reconcile on its own). */
export async function expectCompensated(userId: string, id: string, code: string) {
  const generation = await getGeneration(userId, id);
  expect(generation).toMatchObject({ status: 'failed', creditsRefunded: 6, error: { code } });
  expect(await refundRefs(userId)).toHaveLength(6);
  expect((await getUser(userId))?.credits).toBe(6);
  await expectLedgerBalanced(userId);
}

export const readDeadLetters = async (stack: GenerationStack): Promise<InvocationRecord[]> => {
  const text = await readFile(join(stack.deadLetterDir, `${COMPENSATOR}.jsonl`), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as InvocationRecord);
};
