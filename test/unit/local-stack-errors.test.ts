import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalStackError } from '../../infrastructure/local/support/errors';
import { assertJava } from '../../infrastructure/local/support/java';
import { assertPortFree, HOST } from '../../infrastructure/local/support/ports';

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
});
