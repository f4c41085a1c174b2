import { createServer } from 'node:net';
import { LocalStackError } from './errors';

/** Loopback: the local stack never listens on another interface. */
export const HOST = '127.0.0.1';

function tryListen(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(undefined);
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** A TCP port that is free on loopback right now (the OS picks it). */
export async function findFreePort(): Promise<number> {
  const port = await tryListen(0, HOST);
  if (port === undefined) throw new Error('No free port on loopback');
  return port;
}

/**
 * Checks that `port` is free before a part starts on it, so a taken port gives one clear message instead of a
 * child's stack trace.
 *
 * @param part the part's name as shown in logs, e.g. `dynamodb`
 * @param envVar the variable that moves this part to another port
 * @throws {LocalStackError} when the port is taken.
 */
export async function assertPortFree(port: number, part: string, envVar: string): Promise<void> {
  if ((await tryListen(port, HOST)) === undefined) {
    throw new LocalStackError(
      `Port ${port} (${part}) is already in use — is another \`npm start\` running?`,
      `Stop the other process (\`lsof -i :${port}\` or \`fuser -k ${port}/tcp\`), or pick another port: ${envVar}=<port> npm start`,
    );
  }
}

/** Resolves once something accepts TCP connections on `port`, or rejects after `timeoutMs` (ms). */
export async function waitForPort(port: number, timeoutMs: number, part: string): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: HOST });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`${part} did not start listening on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
