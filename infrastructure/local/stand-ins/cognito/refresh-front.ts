import { holdIdleConnections } from '../../support/http';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { HOST } from '../../support/ports';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/**
 * Fills a gap of cognito-local in front of it: Amplify v6 refreshes sessions with `GetTokensFromRefreshToken`, an
 * operation cognito-local does not have, so without this every local session would end when its tokens expire.
 * That call is answered with cognito-local's own `InitiateAuth` `REFRESH_TOKEN_AUTH` (same tokens, same
 * `{ AuthenticationResult }` shape, as Cognito answers both); every other request is passed through unchanged.
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
