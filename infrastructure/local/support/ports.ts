import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { LocalStackError } from './errors';
import { PORT_VARIABLES, type LocalPorts } from './settings';

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

/** The lowest port the search considers: above the registered ports most dev tools use. */
const SEARCH_FLOOR = 20_000;

/**
 * The first port of the kernel's ephemeral range (Linux: `/proc/sys/net/ipv4/ip_local_port_range`, 32768 by
 * default; the IANA range starts at 49152). Outgoing connections take their local port from this range.
 */
function ephemeralRangeStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    if (Number.isInteger(first) && first > SEARCH_FLOOR + 1_000) return first;
  } catch {
    // Not Linux: fall through to the default Linux range's start, below the IANA one on every other system.
  }
  return 32_768;
}

/** Ports this process has handed out, so two parts starting together never get the same one. */
const handedOut = new Set<number>();

/**
 * A TCP port that is free on loopback right now, chosen at random BELOW the kernel's ephemeral range. A port the OS
 * picks for `listen(0)` comes from the ephemeral range, which is also where every outgoing connection (to DynamoDB
 * Local, the stand-ins, the browser's) takes its local port: between the check and a child's bind, such a
 * connection can take it. Below that range only a listener can, and each port is handed out once per process.
 *
 * @throws {Error} when 200 random tries found nothing free.
 */
export async function findFreePort(): Promise<number> {
  const ceiling = ephemeralRangeStart();
  for (let attempt = 0; attempt < 200; attempt++) {
    const candidate = randomInt(SEARCH_FLOOR, ceiling);
    if (handedOut.has(candidate)) continue;
    if ((await tryListen(candidate, HOST)) !== undefined) {
      handedOut.add(candidate);
      return candidate;
    }
  }
  throw new Error(`No free port on loopback between ${SEARCH_FLOOR} and ${ceiling - 1}`);
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

/**
 * The ports to start on: each 0 replaced by a free port ({@link findFreePort}), each other one checked free, so a
 * taken port fails before any part starts. Absent ports stay absent (their part picks one itself).
 *
 * @throws {LocalStackError} naming the part and the variable that moves it, when a given port is taken.
 */
export async function resolvePorts(ports: LocalPorts): Promise<LocalPorts> {
  const resolved = { ...ports };
  for (const part of Object.keys(ports) as (keyof LocalPorts)[]) {
    const port = resolved[part];
    if (port === undefined) continue;
    if (port === 0) resolved[part] = await findFreePort();
    else await assertPortFree(port, part, PORT_VARIABLES[part]);
  }
  return resolved;
}
