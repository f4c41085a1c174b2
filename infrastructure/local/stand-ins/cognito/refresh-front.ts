import { holdIdleConnections } from '../../support/http';
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import { HOST } from '../../support/ports';
import { cognitoSignInAnswer, type Answer } from './sign-in-answers';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/**
 * Fills gaps of cognito-local in front of it:
 *
 * - Amplify v6 refreshes sessions with `GetTokensFromRefreshToken`, an operation cognito-local does not have, so
 *   without this every local session would end when its tokens expire. That call is answered with cognito-local's
 *   own `InitiateAuth` `REFRESH_TOKEN_AUTH` (same tokens, same `{ AuthenticationResult }` shape, as Cognito answers
 *   both).
 * - A password sign-in (`InitiateAuth` `USER_PASSWORD_AUTH`) is answered as Cognito answers it: a wrong password or
 *   an unknown (deleted) user with NotAuthorizedException "Incorrect username or password.", a disabled user with
 *   "User is disabled." (./sign-in-answers.ts).
 *
 * Every other request is passed through unchanged.
 */
export async function startCognitoFront(options: { port: number; cognitoPort: number }): Promise<{
  server: Server;
  stop(): Promise<void>;
}> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const headers = { ...req.headers };
      let out = body;
      if (headers['x-amz-target'] === `${TARGET_PREFIX}GetTokensFromRefreshToken`) {
        const input = JSON.parse(body.toString('utf8') || '{}') as {
          ClientId?: string;
          RefreshToken?: string;
          ClientMetadata?: Record<string, string>;
        };
        out = Buffer.from(
          JSON.stringify({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: input.ClientId,
            AuthParameters: { REFRESH_TOKEN: input.RefreshToken },
            ...(input.ClientMetadata ? { ClientMetadata: input.ClientMetadata } : {}),
          }),
        );
        headers['x-amz-target'] = `${TARGET_PREFIX}InitiateAuth`;
      }
      headers['content-length'] = String(out.length);
      if (isPasswordSignIn(headers['x-amz-target'], out)) {
        const answer = await forward(options.cognitoPort, req.method, req.url, headers, out);
        const fixed = await cognitoSignInAnswer(answer, (userPoolId, username) =>
          isDisabled(options.cognitoPort, userPoolId, username),
        );
        // cognito-local's own headers stay (the browser needs its CORS headers); only the body's length changes.
        const { 'transfer-encoding': _chunked, 'content-length': _length, ...kept } = answer.headers;
        res.writeHead(fixed.status, { ...kept, 'content-length': String(Buffer.byteLength(fixed.body)) });
        res.end(fixed.body);
        return;
      }
      const upstream = request(
        { host: HOST, port: options.cognitoPort, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ __type: 'InternalErrorException', message: 'cognito-local is not reachable' }),
        );
      });
      upstream.end(out);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    holdIdleConnections(server);
    server.listen(options.port, HOST, () => resolve());
  });
  return {
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isPasswordSignIn(target: string | string[] | undefined, body: Buffer): boolean {
  if (target !== `${TARGET_PREFIX}InitiateAuth`) return false;
  try {
    return (JSON.parse(body.toString('utf8')) as { AuthFlow?: string }).AuthFlow === 'USER_PASSWORD_AUTH';
  } catch {
    return false;
  }
}

/** Sends one request to cognito-local and reads its whole answer. */
function forward(
  port: number,
  method: string | undefined,
  path: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): Promise<Answer & { headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const upstream = request({ host: HOST, port, method, path, headers }, (answer) => {
      readAll(answer).then(
        (data) =>
          resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: data.toString('utf8') }),
        reject,
      );
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/** Whether cognito-local holds the user as disabled (AdminGetUser's `Enabled`; cognito-local checks no credentials). */
async function isDisabled(port: number, userPoolId: string, username: string): Promise<boolean> {
  const body = Buffer.from(JSON.stringify({ UserPoolId: userPoolId, Username: username }));
  const answer = await forward(
    port,
    'POST',
    '/',
    {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `${TARGET_PREFIX}AdminGetUser`,
      'content-length': String(body.length),
    },
    body,
  );
  if (answer.status !== 200) return false;
  return (JSON.parse(answer.body) as { Enabled?: boolean }).Enabled === false;
}
