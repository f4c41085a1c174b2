import { describe, expect, it, vi } from 'vitest';
import {
  CONFIG_ATTEMPTS,
  loadRuntimeConfig,
  loadRuntimeConfigWithRetry,
  parseRuntimeConfig,
  RuntimeConfigError,
} from '../../../frontend/src/lib/runtime-config';

const valid = {
  region: 'us-east-1',
  userPoolId: 'local_abc123',
  userPoolClientId: 'client123',
  cognitoEndpoint: 'http://localhost:9229',
  apiBase: '/api',
  supportEmail: 'support@example.com',
  stage: 'local',
};

function fetchAnswering(response: Response | Error) {
  return vi.fn<typeof fetch>(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
}

describe('loadRuntimeConfig', () => {
  it('fetches /config.json without the HTTP cache and returns the parsed settings', async () => {
    const fetchImpl = fetchAnswering(Response.json({ ...valid, extra: 'ignored' }));

    const config = await loadRuntimeConfig(fetchImpl);

    expect(config).toEqual(valid);
    expect(fetchImpl).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('accepts a missing or null cognitoEndpoint (the cloud)', async () => {
    const { cognitoEndpoint: _omit, ...cloud } = valid;
    await expect(loadRuntimeConfig(fetchAnswering(Response.json(cloud)))).resolves.toMatchObject({
      stage: 'local',
    });
    await expect(
      loadRuntimeConfig(fetchAnswering(Response.json({ ...valid, cognitoEndpoint: null }))),
    ).resolves.toMatchObject({ cognitoEndpoint: null });
  });

  it.each([
    ['an HTTP error', new Response('not found', { status: 404 })],
    ['a network error', new TypeError('Failed to fetch')],
    ['a body that is not JSON', new Response('<!doctype html>', { status: 200 })],
    ['a missing field', Response.json({ ...valid, userPoolId: undefined })],
    ['an invalid e-mail', Response.json({ ...valid, supportEmail: 'nobody' })],
  ])('rejects %s with a RuntimeConfigError', async (_label, answer) => {
    await expect(loadRuntimeConfig(fetchAnswering(answer))).rejects.toBeInstanceOf(RuntimeConfigError);
  });
});

describe('the legal entity in /config.json (issue 35 item 2)', () => {
  const entity = {
    name: 'Example Portraits Ltd',
    address: '1 Example Street, London',
    registration: 'Company number 01234567',
    jurisdiction: 'England and Wales',
  };

  it('keeps a valid entity, trimmed and with its four fields only', () => {
    const parsed = parseRuntimeConfig({
      ...valid,
      legalEntity: { ...entity, name: ' Example Portraits Ltd ', vat: 1 },
    });
    expect(parsed).toEqual({ config: { ...valid, legalEntity: entity } });
  });

  it('reads an absent entity as none and keeps null (a stage deployed without one)', () => {
    expect(parseRuntimeConfig(valid)).toEqual({ config: valid });
    expect(parseRuntimeConfig({ ...valid, legalEntity: null })).toEqual({
      config: { ...valid, legalEntity: null },
    });
  });

  it.each([
    [
      'not an object',
      'Example Ltd',
      /^legalEntity: an object with name, address, registration and jurisdiction$/,
    ],
    ['a missing field', { ...entity, jurisdiction: undefined }, /^legalEntity: jurisdiction: a string$/],
    ['an empty field', { ...entity, name: '  ' }, /^legalEntity: name: a non-empty line of text$/],
    ['a line break', { ...entity, address: '1 Example Street\nLondon' }, /^legalEntity: address: one line/],
    ['a placeholder', { ...entity, name: '[Company legal name]' }, /^legalEntity: name: the real value/],
  ])('refuses %s, naming the field', (_label, legalEntity, problem) => {
    const parsed = parseRuntimeConfig({ ...valid, legalEntity });
    expect('problems' in parsed && parsed.problems).toEqual([expect.stringMatching(problem)]);
  });
});

describe('loadRuntimeConfigWithRetry', () => {
  /** A loader answering each call with the next of `answers` (the last one again once they run out). */
  function loaderOf(...answers: (Response | Error)[]) {
    let call = 0;
    return vi.fn(() => loadRuntimeConfig(fetchAnswering(answers[Math.min(call++, answers.length - 1)]!)));
  }
  const noWait = () => {
    const waits: number[] = [];
    return { waits, sleep: async (ms: number) => void waits.push(ms) };
  };

  it('asks again after transient failures, waiting longer each time, and returns the settings', async () => {
    const load = loaderOf(
      new TypeError('Failed to fetch'),
      new Response('bad gateway', { status: 502 }),
      Response.json(valid),
    );
    const { waits, sleep } = noWait();

    await expect(loadRuntimeConfigWithRetry({ load, sleep, random: () => 0.5 })).resolves.toEqual(valid);

    expect(load).toHaveBeenCalledTimes(3);
    // Equal jitter: half of 500 ms, 1,000 ms fixed, the other half scaled by random() = 0.5.
    expect(waits).toEqual([375, 750]);
  });

  it('keeps every wait between half and all of the doubling ceiling', async () => {
    for (const random of [() => 0, () => 0.999]) {
      const { waits, sleep } = noWait();
      const load = loaderOf(new TypeError('Failed to fetch'));
      await expect(loadRuntimeConfigWithRetry({ load, sleep, random })).rejects.toThrow();
      expect(waits).toHaveLength(CONFIG_ATTEMPTS - 1);
      waits.forEach((ms, i) => {
        const ceiling = 500 * 2 ** i;
        expect(ms).toBeGreaterThanOrEqual(ceiling / 2);
        expect(ms).toBeLessThanOrEqual(ceiling);
      });
    }
  });

  it('gives up after the last attempt with its failure', async () => {
    const load = loaderOf(new Response('unavailable', { status: 503 }));
    const { sleep } = noWait();

    const failure = loadRuntimeConfigWithRetry({ load, sleep, attempts: 3 });

    await expect(failure).rejects.toThrow('/config.json answered HTTP 503');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('does not ask again for a configuration that is invalid', async () => {
    const load = loaderOf(Response.json({ ...valid, supportEmail: 'nobody' }), Response.json(valid));
    const { waits, sleep } = noWait();

    await expect(loadRuntimeConfigWithRetry({ load, sleep })).rejects.toMatchObject({ transient: false });
    expect(load).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });
});
