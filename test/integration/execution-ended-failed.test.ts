import { SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGeneration } from '../../functions/adapters/generations';
import {
  COMPENSATOR,
  compensatorRuns,
  endedStatus,
  executionArnOf,
  expectCompensated,
  readDeadLetters,
  userWithPhotos,
  withFaults,
} from '../helpers/execution-faults';
import { startGeneration } from '../helpers/generation';
import { startGenerationStack, type GenerationStack } from '../helpers/generation-stack';
import { expectLedgerBalanced, refundRefs } from '../helpers/ledger';

/*
 * The execution-ended compensator on the local stack, as EventBridge runs it in the cloud: the local Step Functions
 * puts each execution's "Step Functions Execution Status Change" event on the local bus, the cloud rule's pattern
 * (FAILED, TIMED_OUT, ABORTED of the generation state machine) picks it, and the same handler runs as an
 * asynchronous invocation with Lambda's retries and, when they are spent, its record in the dead-letter file.
 * Faults are injected at the Lambda runtime, per user: a function of the workflow that is down, a slow one, a
 * compensator that keeps throwing.
 */

describe('executions that end without their own compensation', () => {
  let stack: GenerationStack;
  beforeAll(async () => {
    stack = await startGenerationStack({
      env: { IMAGE_PROVIDER: 'local' },
      wrapRuntime: withFaults,
      asyncRetryDelaysMs: [20, 20],
    });
  });
  afterAll(() => stack?.stop());

  it("is compensated by the execution-ended function when the workflow's own refund failed", async () => {
    // BuildPrompt fails (caught → RefundCredits), and RefundCredits is down through all its retries: the execution
    // ends FAILED (CompensationFailed) with the credits still reserved. Only the compensator can give them back.
    const { user, keys } = await userWithPhotos(stack, {
      'generation-build-prompt': 'down',
      'generation-refund-credits': 'down',
    });
    const id = await startGeneration(stack.gatewayUrl, user, keys);
    expect(await endedStatus(stack, id)).toBe('FAILED');
    await stack.settled();

    expect(compensatorRuns.filter((run) => run.userId === user.sub)).toEqual([
      { userId: user.sub, status: 'FAILED', outcome: { compensated: true } },
    ]);
    await expectCompensated(user.sub, id, 'GENERATION_FAILED');
    expect(await readDeadLetters(stack)).toEqual([]);
  }, 120_000);

  it('lands in the dead-letter file, after 3 runs, when the compensator keeps throwing', async () => {
    const { user, keys } = await userWithPhotos(stack, {
      'generation-prepare-references': 'slow',
      [COMPENSATOR]: 'down',
    });
    const id = await startGeneration(stack.gatewayUrl, user, keys);
    const sfn = new SFNClient({
      endpoint: stack.stepfunctions.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await sfn.send(new StopExecutionCommand({ executionArn: executionArnOf(id), cause: 'test' }));
    sfn.destroy();
    expect(await endedStatus(stack, id)).toBe('ABORTED');
    await stack.settled();

    expect(compensatorRuns.filter((run) => run.userId === user.sub)).toHaveLength(3);
    const letters = (await readDeadLetters(stack)).filter((r) =>
      JSON.stringify(r.requestPayload).includes(id),
    );
    expect(letters).toEqual([
      {
        version: '1.0',
        timestamp: expect.any(String),
        requestContext: {
          requestId: expect.any(String),
          functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${COMPENSATOR}:$LATEST`,
          condition: 'RetriesExhausted',
          approximateInvokeCount: 3,
        },
        requestPayload: expect.objectContaining({
          source: 'aws.states',
          'detail-type': 'Step Functions Execution Status Change',
          detail: expect.objectContaining({ executionArn: executionArnOf(id), status: 'ABORTED' }),
        }),
        responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
        responsePayload: {
          errorType: 'InjectedOutage',
          errorMessage: `${COMPENSATOR} is down for this test`,
          trace: [],
        },
      },
    ]);
    // Nothing was refunded by anyone: the generation waits for the sweeper, the ledger is still consistent.
    expect((await getGeneration(user.sub, id))?.status).not.toBe('failed');
    expect(await refundRefs(user.sub)).toEqual([]);
    await expectLedgerBalanced(user.sub);
  }, 120_000);
});
