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
    const { loadSecrets, MISSING_SECRET_TTL_MS } = await import('../../functions/common/secrets');
    const env = { TABLE_NAME: 't', UPLOADS_BUCKET: 'u', RESULTS_BUCKET: 'r', STAGE: 'dev' };
    Object.assign(process.env, env);
    try {
      const t0 = 1_000_000;
      await loadSecrets(t0);
      expect(process.env.OPENAI_API_KEY).toBeUndefined();
      const before = config.imageProviderSettings();
      expect(before.OPENAI_API_KEY).toBeUndefined();

      values['arn:openai'] = 'sk-real';
      await loadSecrets(t0 + MISSING_SECRET_TTL_MS - 1); // still within the TTL: not asked again
      expect(requests).toHaveLength(1);
      expect(config.imageProviderSettings()).toBe(before);

      await loadSecrets(t0 + MISSING_SECRET_TTL_MS);
      expect(requests).toHaveLength(2);
      expect(process.env.OPENAI_API_KEY).toBe('sk-real');
      const after = config.imageProviderSettings();
      expect(after).not.toBe(before);
      expect(after.OPENAI_API_KEY).toBe('sk-real');

      await loadSecrets(t0 + 10 * MISSING_SECRET_TTL_MS); // complete: never asked again
      expect(requests).toHaveLength(2);
    } finally {
      for (const k of Object.keys(env)) delete process.env[k];
      resetConfigForTests();
    }
  });
});
