import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compensatorRuns,
  endedStatus,
  expectCompensated,
  userWithPhotos,
  withFaults,
} from '../helpers/execution-faults';
import { startGeneration } from '../helpers/generation';
import { startGenerationStack, type GenerationStack } from '../helpers/generation-stack';

/*
 * A generation execution that runs past the definition's `TimeoutSeconds`: the local Step Functions times it out as
 * Step Functions does (TIMED_OUT, which no Catch sees), and the execution-ended compensator — reached through the
 * local event bus with the cloud rule's pattern — refunds and closes the generation. Its own file: handlers keep their
 * Step Functions client for the process, so each test stack with its own definition needs a fresh one.
 */

describe('an execution that ends TIMED_OUT', () => {
  let stack: GenerationStack;
  beforeAll(async () => {
    // A 3-second execution timeout (the definition's `TimeoutSeconds`) and a PrepareReferences that takes 8 s.
    stack = await startGenerationStack({
      env: { IMAGE_PROVIDER: 'local' },
      wrapRuntime: withFaults,
      substitutions: { ExecutionTimeoutSeconds: '3' },
    });
  });
  afterAll(() => stack?.stop());

  it('is timed out by the local Step Functions and compensated by the execution-ended function', async () => {
    const { user, keys } = await userWithPhotos(stack, { 'generation-prepare-references': 'slow' });
    const id = await startGeneration(stack.gatewayUrl, user, keys);
    expect(await endedStatus(stack, id)).toBe('TIMED_OUT');
    await stack.settled();

    expect(compensatorRuns.filter((run) => run.userId === user.sub)).toEqual([
      { userId: user.sub, status: 'TIMED_OUT', outcome: { compensated: true } },
    ]);
    await expectCompensated(user.sub, id, 'TIMED_OUT');
  }, 120_000);
});
