import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { getNamespace, Segment } from 'aws-xray-sdk-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * Traces (issue 26 item 3): in Lambda every handler invocation, AWS SDK call and Stripe/OpenAI call is an X-Ray
 * subsegment; everywhere else (the local stack, tests, `npm run invoke`: no X-Ray daemon) tracing is off and the
 * helpers change nothing.
 */

const tracerModule = () => import('../../functions/common/tracer');

type Traced = {
  name: string;
  annotations?: Record<string, unknown>;
  fault?: boolean;
  error?: boolean;
  in_progress?: boolean;
};

describe('tracing outside Lambda', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubEnv('AWS_EXECUTION_ENV', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('is off: traced() just runs the work and AWS SDK clients are left as they are', async () => {
    const { tracer, traced, tracedClient } = await tracerModule();
    expect(tracer.isTracingEnabled()).toBe(false);
    await expect(traced('OpenAI images.edit', async () => 'image')).resolves.toBe('image');
    await expect(traced('Stripe x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const client = new DynamoDBClient({ region: 'us-east-1' });
    expect(tracedClient(client)).toBe(client);
    expect(client.middlewareStack.identify().join()).not.toContain('XRaySDKInstrumentation');
  });
});

describe('tracing in Lambda', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('records each named call as a subsegment with its annotations, and a thrown error on it', async () => {
    const { tracer, traced } = await tracerModule();
    expect(tracer.isTracingEnabled()).toBe(true);
    const root = new Segment('invocation');
    // Lambda runs each invocation in the SDK's context (cls-hooked); a test makes one.
    await getNamespace().runPromise(async () => {
      tracer.setSegment(root);
      await traced('OpenAI images.edit', async () => 'image', { provider: 'openai', slot: 3 });
      await expect(
        traced('Stripe checkout.sessions.retrieve', () => Promise.reject(new Error('503 from Stripe'))),
      ).rejects.toThrow('503');
      expect(tracer.getSegment()).toBe(root); // the parent is current again
    });
    const subsegments = (root as unknown as { subsegments: Traced[] }).subsegments;
    expect(subsegments.map((s) => s.name)).toEqual([
      'OpenAI images.edit',
      'Stripe checkout.sessions.retrieve',
    ]);
    expect(subsegments[0]!.annotations).toEqual({ provider: 'openai', slot: 3 });
    expect(subsegments.every((s) => !s.in_progress)).toBe(true);
    expect(subsegments[1]!.fault || subsegments[1]!.error).toBe(true);
  });

  it('captures AWS SDK clients (X-Ray middleware on the client)', async () => {
    const { tracedClient } = await tracerModule();
    const client = tracedClient(new DynamoDBClient({ region: 'us-east-1' }));
    expect(client.middlewareStack.identify().join()).toContain('XRaySDKInstrumentation');
  });

  it('is off when POWERTOOLS_TRACE_ENABLED=false', async () => {
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'false');
    const { tracer } = await tracerModule();
    expect(tracer.isTracingEnabled()).toBe(false);
  });
});
