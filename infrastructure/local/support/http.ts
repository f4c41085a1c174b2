import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Reads a request body of at most `limit` bytes. Past the limit the rest is drained (so the client gets an answer
 * rather than a reset) and the result is `'too-large'`: each stand-in answers that in its own service's words.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * How long the local servers keep an idle keep-alive connection, in ms: longer than any client keeps one (Node's
 * fetch/undici drops an idle socket after 4 s, the AWS SDK's agent and the OpenAI SDK after at most a minute). Node's
 * default (5 s) let a server close a socket just as a client, its event loop late on a loaded machine, sent the next
 * request on it: `fetch failed` with ECONNRESET in tests. API Gateway and ALB keep idle connections for 60 s or more
 * (https://docs.aws.amazon.com/elasticloadbalancing/latest/application/edit-load-balancer-attributes.html), so the
 * client closing first is also what the cloud does.
 */
export const LOCAL_KEEP_ALIVE_MS = 65_000;

/** Makes `server` keep idle connections for {@link LOCAL_KEEP_ALIVE_MS} (headers may take as long again plus 1 s). */
export function holdIdleConnections(server: Server): void {
  server.keepAliveTimeout = LOCAL_KEEP_ALIVE_MS;
  server.headersTimeout = LOCAL_KEEP_ALIVE_MS + 1000;
}

/**
 * Binds `server` to `port` on `host` (0 picks a free port), idle connections held (see {@link holdIdleConnections}),
 * and returns its base URL, e.g. `http://127.0.0.1:4123`
 * (an IPv6 host in brackets).
 *
 * @throws {Error} (rejects) when the port cannot be bound, e.g. `EADDRINUSE`.
 */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  holdIdleConnections(server);
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** Stops listening and drops open keep-alive connections; resolves once the server is closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolveClose, rejectClose) => {
    server.close((error) => (error ? rejectClose(error) : resolveClose()));
    server.closeAllConnections();
  });
}
