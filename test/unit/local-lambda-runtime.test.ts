import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createLambdaRuntime,
  LambdaFunctionError,
  MAX_RESULT_BYTES,
} from '../../infrastructure/local/stand-ins/lambda/runtime';

/*
 * The in-process Lambda runtime hands events and results over as Lambda's wire would (JSON), and refuses a result
 * over Lambda's 6 MB like Lambda does. Fixture handler: test/fixtures/local-stack/functions/echo.ts.
 */

const functionsDir = fileURLToPath(new URL('../fixtures/local-stack/functions', import.meta.url));
const runtime = createLambdaRuntime([{ name: 'echo', handler: 'echo' }], { functionsDir });
const echoed = async (event: unknown) =>
  ((await runtime.invoke('echo', event)) as { echoed: unknown }).echoed;

describe('local Lambda runtime: payloads', () => {
  it('gives the handler the event as JSON would carry it', async () => {
    const event = {
      at: new Date(Date.UTC(2026, 0, 2)),
      gone: undefined,
      list: [undefined, NaN],
      text: 'a"b',
    };
    expect(await echoed(event)).toStrictEqual({
      at: '2026-01-02T00:00:00.000Z',
      list: [null, null],
      text: 'a"b',
    });
  });

  it('returns a result just under 6 MB of JSON', async () => {
    const body = 'x'.repeat(MAX_RESULT_BYTES - 1000);
    expect(await echoed({ body })).toEqual({ body });
  });

  it("answers a result over 6 MB of JSON with Lambda's Function.ResponseSizeTooLarge", async () => {
    // Under the limit as characters, over it as JSON text: every quote is escaped to two bytes.
    const body = '"'.repeat(Math.ceil(MAX_RESULT_BYTES / 2) + 10);
    const failure = await runtime.invoke('echo', { body }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LambdaFunctionError);
    expect((failure as LambdaFunctionError).payload).toMatchObject({
      errorType: 'Function.ResponseSizeTooLarge',
      errorMessage: `Response payload size exceeded maximum allowed payload size (${MAX_RESULT_BYTES} bytes).`,
    });
  });
});
