import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPECTED_ERRORS, isExpectedError } from '../../functions/common/expected-errors';
import { withLambdaContext } from '../../functions/common/lambda-context';
import { countMetric, timingMetric } from '../../functions/common/metrics';
import { LikenessRejectedError } from '../../functions/domain/likeness';
import { NoHeadshotsError } from '../../functions/domain/generation-errors';
import { NoUsablePhotosError } from '../../functions/domain/photos';

/*
 * Business metrics carry the stage (a dev stage must never trip prod's alarms), and an expected outcome of the
 * workflow is counted as ExpectedErrors of its function — at the invocation's start, as Lambda stamps Errors — so
 * the function's alarm (Errors - ExpectedErrors) pages only on trouble.
 */

/** The EMF lines written while `run` runs. */
async function emfLines(run: () => Promise<unknown> | unknown): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => '_aws' in l);
}

type Emf = { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };

const context = { functionName: 'HeadshotStudio-dev-generation-prepare-references' } as Context;

describe('business metrics', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('STAGE', 'dev');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('carry the stage as a dimension beside the service', async () => {
    const [line] = await emfLines(() => countMetric('PaidNotCredited'));
    expect(line).toMatchObject({ PaidNotCredited: 1, service: 'headshot-studio', stage: 'dev' });
    const aws = line!._aws as Emf;
    expect(aws.CloudWatchMetrics[0]!.Namespace).toBe('HeadshotStudio');
    expect(aws.CloudWatchMetrics[0]!.Dimensions[0]).toEqual(expect.arrayContaining(['service', 'stage']));
  });

  it('name the local stage when STAGE is unset, and keep extra dimensions', async () => {
    vi.stubEnv('STAGE', '');
    const [line] = await emfLines(() =>
      countMetric('CreditsRefunded', 3, {}, { dimensions: { reason: 'likeness' } }),
    );
    expect(line).toMatchObject({ CreditsRefunded: 3, stage: 'local', reason: 'likeness' });
    expect((line!._aws as Emf).CloudWatchMetrics[0]!.Dimensions[0]).toEqual(
      expect.arrayContaining(['service', 'stage', 'reason']),
    );
  });

  it('record timings in milliseconds', async () => {
    const [line] = await emfLines(() => timingMetric('ProviderLatency', 61_234.4));
    expect(line).toMatchObject({ ProviderLatency: 61_234, stage: 'dev' });
    expect(JSON.stringify(line)).toContain('"Unit":"Milliseconds"');
  });
});

describe('expected outcomes', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('STAGE', 'prod');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('are the workflow outcomes, told by name', () => {
    expect(isExpectedError(new NoUsablePhotosError('none'))).toBe(true);
    expect(isExpectedError(new NoHeadshotsError('none'))).toBe(true);
    expect(isExpectedError(new LikenessRejectedError('no match', 40))).toBe(true);
    expect(isExpectedError(Object.assign(new Error('x'), { name: 'TransactionConflictException' }))).toBe(
      true,
    );
    expect(isExpectedError(new TypeError('x is undefined'))).toBe(false);
    expect(isExpectedError(Object.assign(new Error('x'), { name: 'AccessDeniedException' }))).toBe(false);
    expect(isExpectedError('NoHeadshotsError')).toBe(false);
    expect(Object.keys(EXPECTED_ERRORS)).toContain('AdmissionDeadlineError');
  });

  it('are still thrown, and counted once as ExpectedErrors of the function at the invocation start', async () => {
    const started = Date.UTC(2026, 10, 26, 17, 4, 59, 900);
    vi.useFakeTimers({ now: started, toFake: ['Date'] });
    const handler = withLambdaContext(async (_event: unknown) => {
      // The error comes in the next 5-minute period: the count must stay in the invocation's.
      vi.setSystemTime(started + 60_000);
      throw new NoUsablePhotosError('None of your photos could be used');
    });
    let thrown: unknown;
    const lines = await emfLines(async () => {
      thrown = await handler({}, context).catch((e: unknown) => e);
    }).finally(() => vi.useRealTimers());
    expect(thrown).toBeInstanceOf(NoUsablePhotosError);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      ExpectedErrors: 1,
      stage: 'prod',
      function: context.functionName,
      error: 'NoUsablePhotosError',
    });
    expect((lines[0]!._aws as Emf).Timestamp).toBe(started);
  });

  it('leave other errors alone: they count only in Lambda Errors', async () => {
    const handler = withLambdaContext(async (_event: unknown) => {
      throw new TypeError('Cannot read properties of undefined');
    });
    const lines = await emfLines(() => handler({}, context).catch(() => undefined));
    expect(lines).toEqual([]);
  });
});
