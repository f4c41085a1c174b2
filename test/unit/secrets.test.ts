import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const KEYS = [
  'STRIPE_SECRET_ARN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET_ARN',
  'STRIPE_WEBHOOK_SECRET',
  'OPENAI_API_KEY_SECRET_ARN',
  'OPENAI_API_KEY',
  'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT',
  'AWS_SESSION_TOKEN',
];

describe('loadSecrets (Parameters and Secrets Lambda Extension)', () => {
  let server: Server;
  let requests: { secretId: string | null; token: string | undefined }[];
  let values: Record<string, string>;
  const saved: Record<string, string | undefined> = {};

  beforeEach(async () => {
    vi.resetModules();
    for (const k of KEYS) {
      saved[k] = process.env[k];
      delete process.env[k];
    }
    requests = [];
    values = {
      'arn:stripe': ' sk_test_from_secrets_manager \n',
      'arn:webhook': 'REPLACE_ME',
      'arn:openai': 'sk-openai',
    };
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://localhost');
      const secretId = url.searchParams.get('secretId');
      requests.push({ secretId, token: req.headers['x-aws-parameters-secrets-token'] as string | undefined });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ SecretString: values[secretId ?? ''] ?? '' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String((server.address() as AddressInfo).port);
    process.env.AWS_SESSION_TOKEN = 'session-token';
  });

  afterEach(() => {
    server.close();
    for (const k of KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('fills the plain variables once, trims values, and leaves placeholders unset', async () => {
    process.env.STRIPE_SECRET_ARN = 'arn:stripe';
    process.env.STRIPE_WEBHOOK_SECRET_ARN = 'arn:webhook';
    process.env.OPENAI_API_KEY_SECRET_ARN = 'arn:openai';
    const { loadSecrets } = await import('../../functions/common/secrets');
    await Promise.all([loadSecrets(), loadSecrets()]);
    await loadSecrets();
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_from_secrets_manager');
    expect(process.env.STRIPE_WEBHOOK_SECRET).toBeUndefined();
    expect(process.env.OPENAI_API_KEY).toBe('sk-openai');
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.token === 'session-token')).toBe(true);
  });

  it('never overrides a variable that is already set (local stack, tests)', async () => {
    process.env.OPENAI_API_KEY_SECRET_ARN = 'arn:openai';
    process.env.OPENAI_API_KEY = 'from-env';
    const { loadSecrets } = await import('../../functions/common/secrets');
    await loadSecrets();
    expect(process.env.OPENAI_API_KEY).toBe('from-env');
    expect(requests).toHaveLength(0);
  });

  it('asks again for a missing or placeholder secret after the TTL, then parses the configuration again', async () => {
    process.env.OPENAI_API_KEY_SECRET_ARN = 'arn:openai';
    values['arn:openai'] = 'REPLACE_ME';
    const config = await import('../../functions/config/image-provider');
    const { resetConfigForTests } = await import('../../functions/config/settings');
    const { loadSecrets, SECRET_REFRESH_MS } = await import('../../functions/common/secrets');
    const env = { TABLE_NAME: 't', UPLOADS_BUCKET: 'u', RESULTS_BUCKET: 'r', STAGE: 'dev' };
    Object.assign(process.env, env);
    try {
      const t0 = 1_000_000;
      await loadSecrets(t0);
      expect(process.env.OPENAI_API_KEY).toBeUndefined();
      const before = config.imageProviderSettings();
      expect(before.OPENAI_API_KEY).toBeUndefined();

      values['arn:openai'] = 'sk-real';
      await loadSecrets(t0 + SECRET_REFRESH_MS - 1); // still within the TTL: not asked again
      expect(requests).toHaveLength(1);
      expect(config.imageProviderSettings()).toBe(before);

      await loadSecrets(t0 + SECRET_REFRESH_MS);
      expect(requests).toHaveLength(2);
      expect(process.env.OPENAI_API_KEY).toBe('sk-real');
      const after = config.imageProviderSettings();
      expect(after).not.toBe(before);
      expect(after.OPENAI_API_KEY).toBe('sk-real');

      // Present values are refreshed too (a rotated key must reach warm functions): asked again after the refresh.
      await loadSecrets(t0 + 2 * SECRET_REFRESH_MS - 1);
      expect(requests).toHaveLength(2);
      await loadSecrets(t0 + 2 * SECRET_REFRESH_MS);
      expect(requests).toHaveLength(3);
      expect(config.imageProviderSettings()).toBe(after); // same value: nothing parsed again
    } finally {
      for (const k of Object.keys(env)) delete process.env[k];
      resetConfigForTests();
    }
  });

  it('uses a rotated key within the documented bound: the extension cache (45 s) plus the refresh (15 s)', async () => {
    const secrets = await import('../../functions/common/secrets');
    expect(secrets.EXTENSION_SECRET_TTL_SECONDS).toBe(45);
    expect(secrets.SECRET_ROTATION_BOUND_MS).toBe(60_000);
    // The extension as AWS runs it: a value is served from its cache for its TTL, then read from Secrets Manager.
    let stored = 'sk-old';
    let cached: { value: string; until: number } | undefined;
    let clock = 5_000_000;
    values = {};
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      requests.push({
        secretId: new URL(req.url!, 'http://localhost').searchParams.get('secretId'),
        token: '',
      });
      if (!cached || clock >= cached.until) {
        cached = { value: stored, until: clock + secrets.EXTENSION_SECRET_TTL_SECONDS * 1000 };
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ SecretString: cached.value }));
    });
    process.env.OPENAI_API_KEY_SECRET_ARN = 'arn:openai';
    // Worst case: the extension refreshed its cache just before the rotation, the loader just after.
    await secrets.loadSecrets(clock);
    expect(process.env.OPENAI_API_KEY).toBe('sk-old');
    stored = 'sk-new';
    const rotatedAt = clock;
    const deadline = rotatedAt + secrets.SECRET_ROTATION_BOUND_MS;
    // One invocation a second, as a busy function would see.
    while (clock < deadline && process.env.OPENAI_API_KEY !== 'sk-new') {
      clock += 1_000;
      await secrets.loadSecrets(clock);
    }
    expect(process.env.OPENAI_API_KEY).toBe('sk-new');
    expect(clock - rotatedAt).toBeGreaterThanOrEqual(secrets.EXTENSION_SECRET_TTL_SECONDS * 1000);
    expect(clock - rotatedAt).toBeLessThanOrEqual(secrets.SECRET_ROTATION_BOUND_MS);
  });

  it('asks again at the next invocation after the service refused the key (401), not after the refresh', async () => {
    process.env.STRIPE_SECRET_ARN = 'arn:stripe';
    const { loadSecrets, secretRejected } = await import('../../functions/common/secrets');
    const t0 = 2_000_000;
    await loadSecrets(t0);
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_from_secrets_manager');
    values['arn:stripe'] = 'sk_test_rotated';
    await loadSecrets(t0 + 1_000);
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_from_secrets_manager');
    secretRejected('STRIPE_SECRET_KEY');
    await loadSecrets(t0 + 2_000);
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_rotated');
    expect(requests).toHaveLength(2);
  });

  it('keeps a value it read when a refresh cannot reach the extension, and never touches values the environment set', async () => {
    process.env.STRIPE_SECRET_ARN = 'arn:stripe';
    process.env.OPENAI_API_KEY_SECRET_ARN = 'arn:openai';
    process.env.OPENAI_API_KEY = 'from-env';
    const { loadSecrets, secretRejected, SECRET_REFRESH_MS } = await import('../../functions/common/secrets');
    const t0 = 3_000_000;
    await loadSecrets(t0);
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_from_secrets_manager');
    secretRejected('OPENAI_API_KEY'); // the environment's value: not ours to re-read
    server.close();
    process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = '1'; // nothing listens there
    await expect(loadSecrets(t0 + SECRET_REFRESH_MS)).resolves.toBeUndefined();
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_from_secrets_manager');
    expect(process.env.OPENAI_API_KEY).toBe('from-env');
    expect(requests.map((r) => r.secretId)).toEqual(['arn:stripe']);
  });
});
