import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../functions/config';

const minimal = { TABLE_NAME: 't', UPLOADS_BUCKET: 'u', RESULTS_BUCKET: 'r' };

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig(minimal);
    expect(config.AWS_REGION).toBe('us-east-1');
    expect(config.IMAGE_PROVIDER).toBe('local');
    expect(config.GENERATION_MAX_CONCURRENCY).toBe(6);
    expect(config.S3_FORCE_PATH_STYLE).toBe(false);
    expect(config.OPENAI_IMAGE_MODEL).not.toBe('gpt-image-1');
  });

  it('chooses the openai provider when a key is set', () => {
    expect(parseConfig({ ...minimal, OPENAI_API_KEY: 'sk-test' }).IMAGE_PROVIDER).toBe('openai');
  });

  it('defaults to the openai provider in the cloud, with or without a key (a missing key fails slots loudly)', () => {
    expect(parseConfig({ ...minimal, STAGE: 'dev' })).toMatchObject({
      RUNTIME: 'cloud',
      IMAGE_PROVIDER: 'openai',
    });
    expect(parseConfig({ ...minimal, AWS_LAMBDA_FUNCTION_NAME: 'fn' })).toMatchObject({
      RUNTIME: 'cloud',
      IMAGE_PROVIDER: 'openai',
    });
    expect(parseConfig(minimal)).toMatchObject({ RUNTIME: 'local', IMAGE_PROVIDER: 'local' });
    expect(parseConfig({ ...minimal, STAGE: 'dev', IMAGE_PROVIDER: 'local' }).IMAGE_PROVIDER).toBe('local');
  });

  it('treats the secret placeholder as a missing key', () => {
    const config = parseConfig({
      ...minimal,
      OPENAI_API_KEY: 'REPLACE_ME',
      STRIPE_SECRET_KEY: ' REPLACE_ME ',
    });
    expect(config.OPENAI_API_KEY).toBeUndefined();
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
    expect(config.IMAGE_PROVIDER).toBe('local');
  });

  it('refuses the offline provider on prod with a named ConfigError', () => {
    let error: unknown;
    try {
      parseConfig({ ...minimal, STAGE: 'prod', IMAGE_PROVIDER: 'local' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).name).toBe('ConfigError');
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^IMAGE_PROVIDER: local .*STAGE is prod/),
    ]);
    expect(parseConfig({ ...minimal, STAGE: 'prod' }).IMAGE_PROVIDER).toBe('openai');
  });

  it('lists every problem in one error', () => {
    let error: unknown;
    try {
      parseConfig({ UPLOADS_BUCKET: 'u', GENERATION_MAX_CONCURRENCY: 'many', IMAGE_PROVIDER: 'openai' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('TABLE_NAME is missing');
    expect(problems).toContain('RESULTS_BUCKET is missing');
    expect(problems).toContain('GENERATION_MAX_CONCURRENCY');
    expect((error as ConfigError).message).toMatch(/Invalid configuration \(\d+ problems\)/);
  });

  it('requires a webhook secret with a Stripe key', () => {
    expect(() => parseConfig({ ...minimal, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
  });
});
