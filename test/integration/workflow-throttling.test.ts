import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getUser } from '../../functions/adapters/ledger';
import { LambdaFunctionError, parseFunctionName } from '../../infrastructure/local/stand-ins/lambda/runtime';
import { type TestUser } from '../helpers/cognito';
import {
  startDynamoDbThrottleProxy,
  THROTTLING,
  transactionThrottled,
  type DynamoDbThrottleProxy,
} from '../helpers/dynamodb-throttle-proxy';
import { newUserWithPhotos, pollGeneration, startGeneration } from '../helpers/generation';
import { startGenerationStack, type GenerationStack } from '../helpers/generation-stack';
import { expectLedgerBalanced, refundRefs } from '../helpers/ledger';

/*
 * DynamoDB throttling inside the workflow (docs/architecture.md §4, "Throttled table"): DynamoDB Local never
 * throttles, so a proxy in front of it answers chosen requests with DynamoDB's own throttling errors. The real SDK
 * retries each call 3 times; past that the task fails with the error's name, and the ASL's Retry (not its Catch, which
 * would refund) must send the task again until the table answers. The handlers run in this process on the proxy.
 */

let proxy: DynamoDbThrottleProxy;
let stack: GenerationStack;
const users: TestUser[] = [];
/** Every failed task invocation: function and error type (what Step Functions saw). */
const failures: { fn: string; errorType: string }[] = [];
/** The DynamoDB client's tries per call: the SDK's default for DynamoDB (maxAttempts 4). */
const SDK_TRIES = 4;

beforeAll(async () => {
  proxy = await startDynamoDbThrottleProxy(process.env.AWS_ENDPOINT_URL_DYNAMODB!);
  // Before any handler creates its DynamoDB client: every call of this file's handlers goes through the proxy.
  stack = await startGenerationStack({
    // Two slots at a time: the face models run on this process's one thread, and six at once can starve a short task
    // past its Lambda timeout on a busy machine — a refund these tests would misread.
    env: {
      IMAGE_PROVIDER: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
      GENERATION_MAX_CONCURRENCY: '2',
    },
    wrapRuntime: (runtime) => ({
      ...runtime,
      async invoke(name, event, options) {
        try {
          return await runtime.invoke(name, event, options);
        } catch (error) {
          const errorType = error instanceof LambdaFunctionError ? error.payload.errorType : String(error);
          failures.push({ fn: parseFunctionName(name) ?? name, errorType });
          throw error;
        }
      },
    }),
  });
});

afterEach(async () => {
  for (const user of users.splice(0)) await expectLedgerBalanced(user.sub);
});

afterAll(async () => {
  await stack?.stop();
  await proxy?.stop();
});

async function userWithPhotos() {
  const created = await newUserWithPhotos(stack.gatewayUrl, ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg']);
  users.push(created.user);
  return created;
}

describe('a throttled DynamoDB call in a workflow task', () => {
  it('is retried by the workflow until it goes through: all 6 headshots, no refund', async () => {
    const { user, keys } = await userWithPhotos();
    // BuildPrompt's one write (stage `generating`), throttled for every SDK try of 2 task attempts: the task fails
    // twice with ThrottlingException, an on-demand table's throttle. Its Catch would refund all 6 credits.
    const buildPromptWrite = (req: { operation: string; body: string }) =>
      req.operation === 'UpdateItem' &&
      req.body.includes(`USER#${user.sub}`) &&
      req.body.includes('":stage":{"S":"generating"}');
    proxy.throttle(buildPromptWrite, 2 * SDK_TRIES, THROTTLING);
    failures.length = 0;

    const id = await startGeneration(stack.gatewayUrl, user, keys);
    const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id, 120_000);
    await stack.settled();

    expect(proxy.throttled.filter(buildPromptWrite)).toHaveLength(2 * SDK_TRIES);
    expect(failures.filter((f) => f.fn === 'generation-build-prompt')).toEqual([
      { fn: 'generation-build-prompt', errorType: 'ThrottlingException' },
      { fn: 'generation-build-prompt', errorType: 'ThrottlingException' },
    ]);
    expect(final.status).toBe('succeeded');
    expect(final.headshots).toHaveLength(6);
    expect(final.creditsRefunded).toBe(0);
    expect(await refundRefs(user.sub)).toEqual([]);
    expect((await getUser(user.sub))?.credits).toBe(0);
  }, 180_000);

  it('retries a transaction DynamoDB cancelled for throttling (TransactionThrottledError), not refunds it', async () => {
    const { user, keys } = await userWithPhotos();
    // The first slot's headshot save (a TransactWriteItems putting the HEADSHOT item), cancelled with ThrottlingError
    // reasons for all the SDK's tries (it retries them as throttles, which it would not do for a plain cancellation):
    // the FinishHeadshot task fails once as TransactionThrottledError, and its retry (the provider's image still in
    // work/, no second provider call) saves the headshot.
    let slotKey: string | undefined;
    const headshotSave = (req: { operation: string; body: string }) => {
      if (req.operation !== 'TransactWriteItems' || !req.body.includes(`USER#${user.sub}`)) return false;
      const key = /"imageKey":\{"S":"([^"]+)"\}/.exec(req.body)?.[1];
      if (!key) return false;
      slotKey ??= key;
      return key === slotKey;
    };
    proxy.throttle(headshotSave, SDK_TRIES, transactionThrottled);
    failures.length = 0;

    const id = await startGeneration(stack.gatewayUrl, user, keys);
    const { final } = await pollGeneration(stack.gatewayUrl, user.idToken, id, 120_000);
    await stack.settled();

    expect(proxy.throttled.filter(headshotSave)).toHaveLength(SDK_TRIES);
    expect(failures.filter((f) => f.fn === 'generation-finish-headshot')).toEqual([
      { fn: 'generation-finish-headshot', errorType: 'TransactionThrottledError' },
    ]);
    expect(final.status).toBe('succeeded');
    expect(final.headshots).toHaveLength(6);
    expect(final.creditsRefunded).toBe(0);
    expect(await refundRefs(user.sub)).toEqual([]);
  }, 180_000);
});
