import { describe, expect, it, vi } from 'vitest';
import { loadRuntimeConfig, RuntimeConfigError } from '../../../frontend/src/lib/runtime-config';

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
