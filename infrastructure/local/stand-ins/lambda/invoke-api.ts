import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { FunctionNotFoundError, LambdaFunctionError, toErrorPayload, type LambdaRuntime } from './runtime';
import type { LocalLog } from '../../support/log';
import { closeServer, listen } from '../../support/http';

/**
 * The local Lambda Invoke API: the one REST operation AWS SDK Lambda clients need (`Invoke`), served by the
 * in-process runtime. cognito-local's LambdaClient calls it for Cognito triggers (docs/toolchain.md), so triggers run the
 * same handler code as in the cloud.
 */

/** Options of {@link startLambdaServer}. */
export interface LambdaServerOptions {
  /** TCP port; 0 picks a free one (read it back from `url`). */
  port: number;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  runtime: LambdaRuntime;
  log: LocalLog;
}

/** A running local server. */
export interface LocalServer {
  /** Base URL, e.g. `http://127.0.0.1:4123`: the endpoint to give AWS SDK clients. */
  url: string;
  /** Stops listening and drops open (keep-alive) connections. */
  close(): Promise<void>;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
// Lambda's synchronous payload limit (6 MB), over which it answers RequestTooLargeException.
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

class ClientError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PAYLOAD_BYTES) {
      throw new ClientError(
        413,
        'RequestTooLargeException',
        'Request must be smaller than 6291456 bytes for the InvokeFunction operation',
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseEvent(body: Buffer): unknown {
  // Lambda hands an empty payload to the handler as `{}`.
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch (error) {
    throw new ClientError(
      400,
      'InvalidRequestContentException',
      `Could not parse request body into json: ${(error as Error).message}`,
    );
  }
}

// Lambda's REST-JSON error shape: the SDK reads the type from `x-amzn-errortype` and the text from `Message`.
function sendError(
  res: ServerResponse,
  requestId: string,
  status: number,
  type: string,
  message: string,
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': type,
  });
  res.end(JSON.stringify({ Type: status >= 500 ? 'Service' : 'User', Message: message }));
}

/**
 * Starts the Invoke endpoint: `POST /2015-03-31/functions/{FunctionName}/invocations`.
 *
 * - `X-Amz-Invocation-Type: RequestResponse` (default): the body is the event; 200 with the handler's JSON result.
 *   A handler error is still 200, with `X-Amz-Function-Error: Unhandled` and `{ errorType, errorMessage, trace }`.
 * - `Event`: 202 at once, the function runs in the background. `DryRun`: 204.
 * - Unknown function: 404 `ResourceNotFoundException`; a body that is not JSON: 400 `InvalidRequestContentException`.
 *
 * @throws {Error} (rejects) when the port cannot be bound.
 */
export async function startLambdaServer(options: LambdaServerOptions): Promise<LocalServer> {
  const { port, host = '127.0.0.1', runtime, log } = options;

  async function invoke(req: IncomingMessage, res: ServerResponse, functionName: string, requestId: string) {
    const started = Date.now();
    const invocationType = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    const body = await readBody(req);
    if (!runtime.has(functionName)) {
      throw new ClientError(
        404,
        'ResourceNotFoundException',
        new FunctionNotFoundError(runtime.functionArn(functionName)).message,
      );
    }
    const event = parseEvent(body);
    if (invocationType === 'DryRun') {
      res.writeHead(204, { 'x-amzn-requestid': requestId }).end();
      return;
    }
    if (invocationType === 'Event') {
      res.writeHead(202, { 'x-amzn-requestid': requestId }).end();
      runtime.invoke(functionName, event, { requestId }).then(
        () => log.info(`invoke ${functionName} (Event) ok in ${Date.now() - started} ms`),
        (error: unknown) => log.error(`invoke ${functionName} (Event) failed: ${describe(error)}`),
      );
      return;
    }
    if (invocationType !== 'RequestResponse') {
      throw new ClientError(
        400,
        'InvalidParameterValueException',
        `Unsupported invocation type: ${invocationType}`,
      );
    }
    const headers = {
      'content-type': 'application/json',
      'x-amzn-requestid': requestId,
      'x-amz-executed-version': '$LATEST',
    };
    try {
      const result = await runtime.invoke(functionName, event, { requestId });
      res.writeHead(200, headers).end(JSON.stringify(result));
      log.info(`invoke ${functionName} ok in ${Date.now() - started} ms`);
    } catch (error) {
      if (!(error instanceof LambdaFunctionError)) throw error;
      res
        .writeHead(200, { ...headers, 'x-amz-function-error': 'Unhandled' })
        .end(JSON.stringify(error.payload));
      log.error(`invoke ${functionName} failed: ${describe(error)}`);
    }
  }

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const match = INVOKE_PATH.exec(path);
    const handled =
      req.method === 'POST' && match?.[1] !== undefined
        ? invoke(req, res, decodeURIComponent(match[1]), requestId)
        : Promise.reject(
            new ClientError(404, 'UnknownOperationException', `Unsupported: ${req.method} ${path}`),
          );
    handled.catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ClientError) {
        sendError(res, requestId, error.status, error.type, error.message);
      } else {
        log.error(`lambda endpoint error: ${describe(error)}`);
        sendError(res, requestId, 500, 'ServiceException', 'The local Lambda service failed; see its log.');
      }
    });
  });

  const url = await listen(server, port, host);
  log.info(`Lambda Invoke API on ${url}`);

  return {
    url,
    close: () => closeServer(server),
  };
}

function describe(error: unknown): string {
  const { errorType, errorMessage, trace } = toErrorPayload(error);
  return trace.length > 0
    ? `${errorType}: ${errorMessage}\n${trace.slice(1).join('\n')}`
    : `${errorType}: ${errorMessage}`;
}
