import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { resetConfigForTests } from '../../functions/config';
import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { routes } from '../../functions/http/routes';
import {
  createLambdaRuntime,
  localFunctions,
  type LambdaRuntime,
  type LocalFunction,
} from '../../infrastructure/local/functions';
import { startGateway, type RunningGateway } from '../../infrastructure/local/gateway';
import { createCognitoJwtAuthorizer } from '../../infrastructure/local/jwt';
import { createPartLog } from '../../infrastructure/local/log';
import { startStepFunctionsServer, type StepFunctionsServer } from '../../infrastructure/local/stepfunctions';

/*
 * A generation stack of the test's own, in the test process: the route handlers behind a local gateway, the task
 * functions of the catalogue in a local Lambda runtime, and the real statemachines/ on a local Step Functions
 * server — all on the shared emulators (DynamoDB Local, s3rver, cognito-local) of the integration setup. Because
 * the handlers run in this process, the test chooses their configuration (e.g. the `openai` provider pointed at a
 * fake OpenAI server it controls).
 */

const STATE_MACHINES = fileURLToPath(new URL('../../statemachines/', import.meta.url));

/** The same substitutions the local stack and the CDK Workflow construct give the ASL. */
function substitutions(functions: readonly LocalFunction[], env: NodeJS.ProcessEnv): Record<string, string> {
  const values: Record<string, string> = {
    TableName: env.TABLE_NAME ?? '',
    UploadsBucket: env.UPLOADS_BUCKET ?? '',
    ResultsBucket: env.RESULTS_BUCKET ?? '',
    MaxConcurrency: env.GENERATION_MAX_CONCURRENCY ?? '6',
  };
  for (const { name } of functions) {
    const pascal = name.replace(/(^|[-_/])(\w)/g, (_, __: string, c: string) => c.toUpperCase());
    values[`${pascal}FunctionArn`] = `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
  }
  return values;
}

/** A running test-owned generation stack. */
export interface GenerationStack {
  gatewayUrl: string;
  stepfunctions: StepFunctionsServer;
  /**
   * Resolves once no function invocation is running. A stopped execution's tasks keep running in the background (as
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
  userPoolId: string;
  clientId: string;
}): Promise<GenerationStack> {
  Object.assign(process.env, options.env);
  const log = createPartLog('gen-test', { quiet: true });
  const routeFunctions: LocalFunction[] = [...new Set(routes.map((r) => r.handler))].map((handler) => ({
    name: handler.replaceAll('/', '-'),
    handler,
    timeoutSeconds: 30,
  }));
  const functions = [...localFunctions, ...routeFunctions];
  const { runtime, settled } = trackInvocations(createLambdaRuntime(functions));
  const stepfunctions = await startStepFunctionsServer({
    port: 0,
    runtime,
    stateMachinesDir: STATE_MACHINES,
    substitutions: substitutions(functions, process.env),
    log,
  });
  process.env.AWS_ENDPOINT_URL_SFN = stepfunctions.url;
  process.env.STATE_MACHINE_ARN = stepfunctions.stateMachineArn('generation');
  resetConfigForTests();
  resetImageProviderForTests();

  const authorizer = await createCognitoJwtAuthorizer({
    cognitoEndpoint: process.env.COGNITO_ENDPOINT ?? '',
    userPoolId: options.userPoolId,
    clientId: options.clientId,
  });
  const gateway: RunningGateway = await startGateway({
    port: 0,
    routes,
    authorizer,
    invoke: (route, event) => runtime.invoke(route.handler.replaceAll('/', '-'), event),
    log,
  });
  return {
    gatewayUrl: gateway.url,
    stepfunctions,
    settled,
    async stop() {
      await Promise.race([settled(), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await gateway.stop();
      await stepfunctions.close();
    },
  };
}

/** One `POST /v1/images/edits` the fake OpenAI server received. */
export interface EditCall {
  /** 0-based, in arrival order. */
  index: number;
  model: string;
  prompt: string;
  size: string;
  quality: string;
  n: string;
  inputFidelity: string | null;
  /** The `image[]` parts (or the single `image` part). */
  images: { name: string; type: string; bytes: Buffer }[];
  authorization: string | undefined;
}

/** What the fake answers one call with: a status and JSON body, or `image` (a real edit-like result). */
export type EditAnswer = 'image' | { status: number; body: unknown };

/** A local server speaking OpenAI's Images edit API, scripted by the test. */
export interface FakeOpenAi {
  /** The base URL to give the SDK (`…/v1`). */
  baseURL: string;
  calls: EditCall[];
  /** Decides each answer; the default answers every call with an image. May wait (a slow provider). */
  answer: (call: EditCall) => EditAnswer | Promise<EditAnswer>;
  close(): Promise<void>;
}

async function readMultipart(req: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request('http://fake.local/', {
    method: 'POST',
    headers,
    body: Buffer.concat(chunks),
  }).formData();
}

/** An edit-like result: the first reference photo, squared and tinted, as PNG (the provider re-encodes it). */
async function editedImage(call: EditCall): Promise<string> {
  const source = call.images[0]?.bytes;
  const png = await sharp(source).resize(1024, 1024, { fit: 'cover' }).tint('#d9c7b0').png().toBuffer();
  return png.toString('base64');
}

/**
 * Starts the fake OpenAI server on a free loopback port. Answers `POST /v1/images/edits` (multipart with repeated
 * `image[]` parts, as the SDK sends several images) with `{ created, data: [{ b64_json }] }`, or with whatever
 * `answer` decides; every other path is 404.
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseURL: '',
    calls: [],
    answer: () => 'image',
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/images/edits') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const form = await readMultipart(req);
      const parts = [...form.getAll('image[]'), ...form.getAll('image')].filter(
        (p): p is File => typeof p !== 'string',
      );
      const call: EditCall = {
        index: fake.calls.length,
        model: String(form.get('model')),
        prompt: String(form.get('prompt')),
        size: String(form.get('size')),
        quality: String(form.get('quality')),
        n: String(form.get('n')),
        inputFidelity: form.get('input_fidelity') as string | null,
        images: await Promise.all(
          parts.map(async (p) => ({ name: p.name, type: p.type, bytes: Buffer.from(await p.arrayBuffer()) })),
        ),
        authorization: req.headers.authorization,
      };
      fake.calls.push(call);
      const answer = await fake.answer(call);
      if (answer === 'image') {
        const body = {
          created: Math.floor(Date.now() / 1000),
          data: [{ b64_json: await editedImage(call) }],
        };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      } else {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** OpenAI's error bodies, as its API sends them. */
export const openAiErrors = {
  rateLimited: {
    status: 429,
    body: {
      error: { message: 'Rate limit reached for images', type: 'requests', code: 'rate_limit_exceeded' },
    },
  },
  moderation: {
    status: 400,
    body: {
      error: {
        message: 'Your request was rejected as a result of our safety system.',
        type: 'image_generation_user_error',
        code: 'moderation_blocked',
      },
    },
  },
  serverError: {
    status: 500,
    body: { error: { message: 'The server had an error processing your request.', type: 'server_error' } },
  },
} as const;
