import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { handler as health } from '../../functions/http/health';
import type { HttpEvent } from '../../functions/http/handler';
import {
  cameThroughCloudFront,
  ORIGIN_VERIFY_HEADER,
  ORIGIN_VERIFY_VARIABLE,
} from '../../functions/http/origin-verify';

const sample = (): HttpEvent =>
  JSON.parse(readFileSync(new URL('../events/http/health.json', import.meta.url), 'utf8')) as HttpEvent;

describe('the execute-api endpoint answers only what came through CloudFront', () => {
  afterEach(() => {
    delete process.env[ORIGIN_VERIFY_VARIABLE];
  });

  it('accepts the exact origin header value, and anything when none is configured (local stack)', () => {
    expect(cameThroughCloudFront({ [ORIGIN_VERIFY_HEADER]: 's3cret' }, 's3cret')).toBe(true);
    expect(cameThroughCloudFront({ [ORIGIN_VERIFY_HEADER]: 's3cret-but-longer' }, 's3cret')).toBe(false);
    expect(cameThroughCloudFront({ [ORIGIN_VERIFY_HEADER]: '' }, 's3cret')).toBe(false);
    expect(cameThroughCloudFront({}, 's3cret')).toBe(false);
    expect(cameThroughCloudFront(undefined, 's3cret')).toBe(false);
    expect(cameThroughCloudFront({}, undefined)).toBe(true);
  });

  it('fails closed in the cloud when no value is configured, but not locally or on LocalStack', () => {
    const header = { [ORIGIN_VERIFY_HEADER]: 'anything' };
    expect(cameThroughCloudFront(header, undefined, { AWS_LAMBDA_FUNCTION_NAME: 'http-me' })).toBe(false);
    expect(cameThroughCloudFront(header, undefined, { STAGE: 'prod' })).toBe(false);
    expect(cameThroughCloudFront(header, '', { STAGE: 'prod' })).toBe(false);
    expect(cameThroughCloudFront({}, undefined, {})).toBe(true);
    expect(
      cameThroughCloudFront({}, undefined, { STAGE: 'local', AWS_ENDPOINT_URL: 'http://localhost:4566' }),
    ).toBe(true);
  });

  it('answers a direct call 403 in the API’s error shape, and serves the same request from CloudFront', async () => {
    process.env[ORIGIN_VERIFY_VARIABLE] = 'deploy-time-value';
    const direct = await health(sample());
    expect(direct.statusCode).toBe(403);
    expect(JSON.parse(direct.body!)).toEqual({
      error: { code: 'FORBIDDEN', message: 'Call the API through the site.' },
    });
    const event = sample();
    event.headers = { ...event.headers, [ORIGIN_VERIFY_HEADER]: 'deploy-time-value' };
    expect((await health(event)).statusCode).toBe(200);
  });
});
