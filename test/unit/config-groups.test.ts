import { describe, expect, it } from 'vitest';
import { parseGenerationSettings } from '../../functions/config/generation';
import { parseImageProviderSettings } from '../../functions/config/image-provider';
import { parseLikenessSettings } from '../../functions/config/likeness';
import { parseQuotaSettings } from '../../functions/config/quotas';
import { parseRuntimeSettings } from '../../functions/config/runtime';
import { ConfigError } from '../../functions/config/settings';
import { parseSiteSettings } from '../../functions/config/site';
import { parseStorageSettings } from '../../functions/config/storage';
import { parseStripeSettings } from '../../functions/config/stripe';

/** The problems of the ConfigError `parse` throws (fails the test when it throws none). */
function problemsOf(parse: () => unknown): ConfigError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('settings groups', () => {
  it('apply the documented defaults', () => {
    expect(parseRuntimeSettings({})).toMatchObject({
      AWS_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
      LOG_LEVEL: 'INFO',
      RUNTIME: 'local',
    });
    expect(parseGenerationSettings({})).toMatchObject({
      GENERATION_MAX_CONCURRENCY: 6,
      GENERATION_DEADLINE_MINUTES: 30,
    });
    expect(parseSiteSettings({})).toEqual({
      SITE_ORIGIN: 'http://localhost:5173',
      SUPPORT_EMAIL: 'support@headshot.studio',
    });
    expect(parseQuotaSettings({})).toEqual({
      QUOTA_UPLOADS_PER_HOUR: 100,
      QUOTA_CHECKOUT_SESSIONS_PER_HOUR: 10,
      QUOTA_PHOTO_CHECKS_PER_HOUR: 100,
      QUOTA_DATA_DELETIONS_PER_HOUR: 10,
      QUOTA_REGENERATIONS_PER_HOUR: 30,
      QUOTA_EDITS_PER_HOUR: 30,
      QUOTA_CHECKOUT_VERIFICATIONS_PER_HOUR: 60,
      QUOTA_TEAMS_PER_DAY: 10,
      QUOTA_TEAM_INVITATIONS_PER_HOUR: 100,
      QUOTA_TEAM_JOINS_PER_HOUR: 20,
      QUOTA_PROVIDER_CALLS_PER_CREDIT: 2,
      QUOTA_LIKENESS_REJECTIONS_TO_STOP: 3,
      QUOTA_FAILED_PHOTO_SET_DAYS: 7,
      QUOTA_PROVIDER_REFUSALS_TO_STOP: 3,
      QUOTA_ACCOUNT_REFUSALS: 6,
      QUOTA_REFUSAL_WINDOW_HOURS: 24,
      QUOTA_REFUSED_PHOTO_SET_DAYS: 7,
    });
    expect(parseLikenessSettings({}).LIKENESS_THRESHOLD).toBeGreaterThan(0);
    const provider = parseImageProviderSettings({});
    expect(provider.IMAGE_PROVIDER).toBe('local');
    expect(provider.OPENAI_IMAGE_MODEL).not.toBe('gpt-image-1');
    expect(provider.PROVIDER_IMAGES_PER_MINUTE).toBe(Number.POSITIVE_INFINITY);
  });

  it('read only their own variables: a bad variable of one group does not fail another', () => {
    const env = {
      TABLE_NAME: 't',
      UPLOADS_BUCKET: 'u',
      RESULTS_BUCKET: 'r',
      GENERATION_MAX_CONCURRENCY: 'many',
    };
    expect(parseStorageSettings(env)).toEqual({ TABLE_NAME: 't', UPLOADS_BUCKET: 'u', RESULTS_BUCKET: 'r' });
    expect(problemsOf(() => parseGenerationSettings(env)).problems).toEqual([
      expect.stringMatching(/^GENERATION_MAX_CONCURRENCY: /),
    ]);
  });

  it('tell the cloud from the local stack', () => {
    expect(parseRuntimeSettings({ STAGE: 'dev' }).RUNTIME).toBe('cloud');
    expect(parseRuntimeSettings({ AWS_LAMBDA_FUNCTION_NAME: 'fn' }).RUNTIME).toBe('cloud');
    expect(parseRuntimeSettings({ STAGE: ' ' }).RUNTIME).toBe('local');
  });
});

describe('image provider settings', () => {
  it('choose the openai provider when a key is set', () => {
    expect(parseImageProviderSettings({ OPENAI_API_KEY: 'sk-test' })).toMatchObject({
      IMAGE_PROVIDER: 'openai',
      PROVIDER_IMAGES_PER_MINUTE: 5,
      PROVIDER_MAX_CONCURRENCY: 4,
    });
  });

  it('default to the openai provider in the cloud, with or without a key (a missing key fails slots loudly)', () => {
    expect(parseImageProviderSettings({ STAGE: 'dev' })).toMatchObject({
      RUNTIME: 'cloud',
      IMAGE_PROVIDER: 'openai',
    });
    expect(parseImageProviderSettings({ AWS_LAMBDA_FUNCTION_NAME: 'fn' }).IMAGE_PROVIDER).toBe('openai');
    expect(parseImageProviderSettings({ STAGE: 'dev', IMAGE_PROVIDER: 'local' }).IMAGE_PROVIDER).toBe(
      'local',
    );
  });

  it('treat the secret placeholder as a missing key', () => {
    const settings = parseImageProviderSettings({ OPENAI_API_KEY: 'REPLACE_ME' });
    expect(settings.OPENAI_API_KEY).toBeUndefined();
    expect(settings.IMAGE_PROVIDER).toBe('local');
  });

  it('map 0 to unlimited and keep fractional rates', () => {
    const settings = parseImageProviderSettings({
      IMAGE_PROVIDER: 'openai',
      PROVIDER_IMAGES_PER_MINUTE: '0.5',
      PROVIDER_MAX_CONCURRENCY: '0',
    });
    expect(settings.PROVIDER_IMAGES_PER_MINUTE).toBe(0.5);
    expect(settings.PROVIDER_MAX_CONCURRENCY).toBe(Number.POSITIVE_INFINITY);
  });

  it('refuse the offline provider on prod with a named ConfigError', () => {
    const error = problemsOf(() => parseImageProviderSettings({ STAGE: 'prod', IMAGE_PROVIDER: 'local' }));
    expect(error.name).toBe('ConfigError');
    expect(error.problems).toEqual([expect.stringMatching(/^IMAGE_PROVIDER: local .*STAGE is prod/)]);
    expect(parseImageProviderSettings({ STAGE: 'prod' }).IMAGE_PROVIDER).toBe('openai');
  });

  it('refuse the offline provider when the stack says PRODUCTION, whatever the stage name', () => {
    expect(() => parseImageProviderSettings({ STAGE: 'production', IMAGE_PROVIDER: 'local' })).toThrow(
      /IMAGE_PROVIDER/,
    );
    expect(() =>
      parseImageProviderSettings({ STAGE: 'live', PRODUCTION: 'true', IMAGE_PROVIDER: 'local' }),
    ).toThrow(/IMAGE_PROVIDER/);
    expect(
      parseImageProviderSettings({ STAGE: 'prod', PRODUCTION: 'false', IMAGE_PROVIDER: 'local' })
        .IMAGE_PROVIDER,
    ).toBe('local');
    expect(() => parseImageProviderSettings({ STAGE: 'dev', PRODUCTION: 'yes' })).toThrow(/PRODUCTION/);
  });
});

describe('ConfigError', () => {
  it('lists every problem of a group in one error', () => {
    const error = problemsOf(() => parseStorageSettings({ UPLOADS_BUCKET: 'u' }));
    expect(error.problems).toEqual(['TABLE_NAME is missing', 'RESULTS_BUCKET is missing']);
    expect(error.message).toMatch(/Invalid configuration \(2 problems\)/);
    expect(error.message).toContain('TABLE_NAME is missing');
  });

  it('quotes the English message of an invalid value', () => {
    const error = problemsOf(() => parseRuntimeSettings({ LOG_LEVEL: 'LOUD' }));
    expect(error.problems).toEqual([expect.stringMatching(/^LOG_LEVEL: Invalid option: expected one of/)]);
  });
});

describe('stripe settings', () => {
  it('treat the secret placeholder as a missing key', () => {
    expect(parseStripeSettings({ STRIPE_SECRET_KEY: ' REPLACE_ME ' }).STRIPE_SECRET_KEY).toBeUndefined();
  });

  it('require a webhook secret with a Stripe key', () => {
    expect(problemsOf(() => parseStripeSettings({ STRIPE_SECRET_KEY: 'sk_test_x' })).problems).toEqual([
      'STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set',
    ]);
  });
});
