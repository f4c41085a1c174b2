import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalStackError } from '../../infrastructure/local/support/errors';
import { assertJava } from '../../infrastructure/local/support/java';
import { readFileSync } from 'node:fs';
import { assertPortFree, findFreePort, HOST } from '../../infrastructure/local/support/ports';

describe('local stack start-up errors', () => {
  let server: Server | undefined;
  const path = process.env.PATH;
  afterEach(() => {
    server?.close();
    process.env.PATH = path;
  });

  it('names the taken port, the part and the variable that moves it', async () => {
    server = createServer();
    const port = await new Promise<number>((resolve) =>
      server!.listen(0, HOST, () => resolve((server!.address() as { port: number }).port)),
    );
    const error = await assertPortFree(port, 'dynamodb', 'DYNAMODB_PORT').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalStackError);
    expect((error as LocalStackError).message).toContain(`Port ${port} (dynamodb) is already in use`);
    expect((error as LocalStackError).fix).toContain('DYNAMODB_PORT=<port> npm start');
  });

  it('says how to install Java when it is missing', () => {
    process.env.PATH = '/nonexistent';
    let error: unknown;
    try {
      assertJava();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LocalStackError);
    expect((error as LocalStackError).message).toMatch(/Java was not found/);
    expect((error as LocalStackError).fix).toMatch(/openjdk-17-jre-headless/);
  });

  it('hands out distinct free ports below the ephemeral range, where outgoing connections cannot take them', async () => {
    const ephemeralStart = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    const ports = await Promise.all(Array.from({ length: 20 }, () => findFreePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(ports[0], HOST, resolve));
    expect((server.address() as { port: number }).port).toBe(ports[0]);
  });
});
