import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { resetConfigForTests } from '../../functions/config/settings';
import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { routes } from '../../functions/http/routes';
import {
  createLambdaRuntime,
  localFunctions,
  type LambdaRuntime,
} from '../../infrastructure/local/stand-ins/lambda/runtime';
import { startFakeOpenAi, type FakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';
import { localIamCheck, localIamDisabled } from '../../infrastructure/local/iam/local-check';
import { createPartLog } from '../../infrastructure/local/support/log';
import { executionEndedRule, startEventBus } from '../../infrastructure/local/stand-ins/eventbridge/bus';
import { createAsyncInvoker } from '../../infrastructure/local/stand-ins/lambda/async-invoke';
import { startEventSourceMapping } from '../../infrastructure/local/stand-ins/lambda/event-source-mapping';
import { startSqs } from '../../infrastructure/local/stand-ins/sqs/fauxqs';
import { HOST } from '../../infrastructure/local/support/ports';
import { ensureTable } from '../../infrastructure/local/bootstrap';
import { LOCAL_NAMES } from '../../infrastructure/local/support/settings';
import { queues } from '../../functions/queue-catalogue';
import type { TestUser } from './cognito';
import { newUserWithPhotos } from './generation';
import { expectLedgerBalanced } from './ledger';
import { startRouteGateway } from './route-gateway';
import {
  startStepFunctionsServer,
  stateMachineSubstitutions,
  type StepFunctionsServer,
} from '../../infrastructure/local/stand-ins/step-functions/server';

/*
 * A generation stack of the test's own, in the test process: the route handlers behind a local gateway, the task
 * functions of the catalogue in a local Lambda runtime, and the real statemachines/ on a local Step Functions
 * server — all on the shared emulators (DynamoDB Local, s3rver, cognito-local) of the integration setup. Because
 * the handlers run in this process, the test chooses their configuration (e.g. the `openai` provider pointed at a
 * fake OpenAI server it controls).
 */

const STATE_MACHINES = fileURLToPath(new URL('../../statemachines/', import.meta.url));

/** A running test-owned generation stack. */
export interface GenerationStack {
  gatewayUrl: string;
  stepfunctions: StepFunctionsServer;
  /**
   * Where the execution-ended rule's dead letters land (`<dir>/generation-execution-ended.jsonl`, as
   * `.local/dead-letter/` for `npm start`); removed at stop.
   */
  deadLetterDir: string;
  /**
   * Resolves once no function invocation is running (the execution-ended compensator's, retries included). A stopped execution's tasks keep running in the background (as
   * Lambda invocations do when Step Functions stops waiting): a test that stops one awaits this before asserting.
   */
  settled(): Promise<void>;
  /** Waits for running invocations (at most 30 s), then stops the gateway and the Step Functions server. */
  stop(): Promise<void>;
}

/** Wraps a runtime so the test can wait for every invocation in flight, including those nobody awaits any more. */
function trackInvocations(runtime: LambdaRuntime): { runtime: LambdaRuntime; settled: () => Promise<void> } {
  const inflight = new Set<Promise<void>>();
  return {
    runtime: {
      ...runtime,
      invoke(nameOrArn, event, options) {
        const invocation = runtime.invoke(nameOrArn, event, options);
        const done = invocation.then(
          () => undefined,
          () => undefined,
        );
        inflight.add(done);
        void done.then(() => inflight.delete(done));
        return invocation;
      },
    },
    async settled() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
  };
}

/**
 * Starts the stack with `env` applied to `process.env` first (handlers read their config at first use), then
 * points `STATE_MACHINE_ARN` and the SFN endpoint at its own Step Functions server.
 */
export async function startGenerationStack(options: {
  env: Record<string, string>;
  /** Wraps the Lambda runtime every invocation goes through (to fail a function on purpose). */
  wrapRuntime?: (runtime: LambdaRuntime) => LambdaRuntime;
  /** Definition substitutions that replace the stack's own (e.g. a short `ExecutionTimeoutSeconds`). */
  substitutions?: Record<string, string>;
  /** Waits before the compensator's asynchronous retries, in ms (default: Lambda's 1 and 2 minutes). */
  asyncRetryDelaysMs?: readonly number[];
}): Promise<GenerationStack> {
  // Unlimited provider capacity and the default deadline unless the test says otherwise.
  Object.assign(
    process.env,
    { PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '0', GENERATION_DEADLINE_MINUTES: '30' },
    options.env,
  );
  // A table of the file's own: the provider line's state (its token bucket, a pause after a 429, the free lane's
  // allowance) is one item per table, and a test that moves its clock ahead or pauses the line must not stall the
  // generations of the file running beside it on the shared stack.
  const sharedTable = process.env.TABLE_NAME;
  const tableName = `${LOCAL_NAMES.table}-${randomUUID().slice(0, 8)}`;
  await ensureTable({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
    region: process.env.AWS_REGION ?? 'us-east-1',
    tableName,
  });
  process.env.TABLE_NAME = tableName;
  const log = createPartLog('gen-test', { quiet: true });
  const functions = localFunctions;
  // Each function's AWS calls checked against its role, as the shared stack does (docs/decisions/016-local-iam.md).
  const iam = localIamDisabled() ? undefined : localIamCheck({ log });
  await iam?.ready;
  const base = createLambdaRuntime(functions, { iam });
  const { runtime, settled } = trackInvocations(options.wrapRuntime?.(base) ?? base);
  // The local event bus with the cloud's execution-ended rule, as `npm start` runs it.
  const deadLetterDir = mkdtempSync(join(tmpdir(), 'dead-letter-'));
  const bus = startEventBus({
    rules: [executionEndedRule({ region: 'us-east-1', deadLetterDir, log })],
    invoker: createAsyncInvoker(runtime, { log, retryDelaysMs: options.asyncRetryDelaysMs }),
    log,
  });
  const stepfunctions = await startStepFunctionsServer({
    port: 0,
    runtime,
    stateMachinesDir: STATE_MACHINES,
    substitutions: {
      ...stateMachineSubstitutions(
        functions.map((f) => f.name),
        'us-east-1',
        process.env,
      ),
      ...options.substitutions,
    },
    events: bus,
    log,
  });
  process.env.AWS_ENDPOINT_URL_SFN = stepfunctions.url;
  process.env.STATE_MACHINE_ARN = stepfunctions.stateMachineArn('generation');
  // The queue catalogue on an SQS of the stack's own (the provider queue's wake-ups), polled for its consumers.
  const sqs = await startSqs({
    port: 0,
    host: HOST,
    region: 'us-east-1',
    queues,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    log,
  });
  Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: sqs.endpoint }, sqs.env);
  const mappings = [...sqs.queues.values()].map((queue) =>
    startEventSourceMapping({ queue, client: sqs.client, runtime, region: 'us-east-1', log }),
  );
  resetConfigForTests();
  resetImageProviderForTests();

  // The stack's own user pool (the handlers' COGNITO_* come from the shared stack's environment).
  const gateway = await startRouteGateway({ routes, runtime });
  return {
    gatewayUrl: gateway.url,
    stepfunctions,
    deadLetterDir,
    async settled() {
      await bus.idle();
      await settled();
    },
    async stop() {
      await Promise.race([settled(), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await gateway.stop();
      for (const mapping of mappings) mapping.stop();
      await sqs.stop();
      await stepfunctions.close();
      await bus.stop();
      rmSync(deadLetterDir, { recursive: true, force: true });
      process.env.TABLE_NAME = sharedTable;
      resetConfigForTests();
    },
  };
}

/** A test file's generation stack with the `openai` provider pointed at the OpenAI stand-in. */
export interface OpenAiGenerationStack {
  /** The OpenAI stand-in: script its answers, limits and latency per test. */
  readonly fake: FakeOpenAi;
  readonly stack: GenerationStack;
  /**
   * After the current test (and the file's own `afterEach` hooks, which run first: a wait for the stack to settle,
   * say), expects `user`'s balance to equal the sum of their ledger, never negative.
   */
  expectBalancedAfterTest(user: TestUser): void;
  /**
   * A new user (6 free credits) with the fixture `photos` uploaded (default three of one person), and their upload
   * keys; their ledger is checked after the test ({@link expectBalancedAfterTest}).
   */
  userWithPhotos(photos?: string[]): Promise<{ user: TestUser; keys: string[] }>;
}

/**
 * Starts the OpenAI stand-in and a generation stack whose handlers use the `openai` provider (the real SDK) against
 * it — six slots at once, unlimited provider capacity unless `env` says otherwise — before the file's tests, and
 * stops both after them. After each test the stand-in forgets its calls and goes back to answering every call at
 * once with an image, with no rate limit.
 *
 * @param env more handler configuration, read when the stack starts (so it may name servers a `beforeAll`
 *   registered before this call started)
 * @param options.wrapRuntime wraps the Lambda runtime every invocation goes through (to record or fail them)
 */
export function useOpenAiGenerationStack(
  env: () => Record<string, string> = () => ({}),
  options: Pick<Parameters<typeof startGenerationStack>[0], 'wrapRuntime'> = {},
): OpenAiGenerationStack {
  let fake: FakeOpenAi | undefined;
  let stack: GenerationStack | undefined;
  const users: TestUser[] = [];
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    stack = await startGenerationStack({
      env: {
        IMAGE_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test-headshots',
        OPENAI_BASE_URL: fake.baseURL,
        GENERATION_MAX_CONCURRENCY: '6',
        ...env(),
      },
      wrapRuntime: options.wrapRuntime,
    });
  });
  afterEach(async () => {
    for (const user of users.splice(0)) await expectLedgerBalanced(user.sub);
    if (!fake) return;
    fake.calls.length = 0;
    fake.answer = () => 'image';
    fake.rateLimit = undefined;
    fake.latencyMs = 0;
    fake.resetStats();
  });
  afterAll(async () => {
    await stack?.stop();
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('The generation stack is not started yet (use it inside a test or hook)');
    return value;
  };
  const gen: OpenAiGenerationStack = {
    get fake() {
      return started(fake);
    },
    get stack() {
      return started(stack);
    },
    expectBalancedAfterTest(user) {
      users.push(user);
    },
    async userWithPhotos(photos = ['obama.jpg', 'obama2.jpg', 'obama3.jpg']) {
      const created = await newUserWithPhotos(gen.stack.gatewayUrl, photos);
      gen.expectBalancedAfterTest(created.user);
      return created;
    },
  };
  return gen;
}

export {
  openAiErrors,
  startFakeOpenAi,
  type EditAnswer,
  type EditCall,
  type FakeOpenAi,
  type RateLimit,
} from '../../infrastructure/local/stand-ins/openai/server';
