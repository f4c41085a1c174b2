import { describe, expect, it } from 'vitest';
import { DEFAULT_OPENAI_MAX_CONCURRENCY } from '../../functions/config/image-provider';
import { THRESHOLDS } from '../../infrastructure/constructs/operations';
import { appFunctions, devStack, testStack } from './helpers';

/**
 * Decision 017 (docs/decisions/017-new-account-quotas.md): a new AWS account may allow 10 concurrent Lambda executions
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html: "New AWS accounts have reduced concurrency
 * and memory quotas"), and reserved concurrency must leave 100 unreserved
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html), so none can be reserved there.
 */
const NEW_ACCOUNT_CONCURRENCY = 10;

type Props = Record<string, unknown>;

describe('defaults that fit a new account’s Lambda concurrency quota', () => {
  const { template } = devStack();

  it('reserves and provisions no concurrency (a quota under 100 refuses any reservation)', () => {
    for (const [logicalId, fn] of Object.entries(template.findResources('AWS::Lambda::Function'))) {
      expect((fn as { Properties: Props }).Properties, logicalId).not.toHaveProperty(
        'ReservedConcurrentExecutions',
      );
    }
    for (const type of ['AWS::Lambda::Alias', 'AWS::Lambda::Version']) {
      for (const [logicalId, r] of Object.entries(template.findResources(type))) {
        expect((r as { Properties: Props }).Properties, logicalId).not.toHaveProperty(
          'ProvisionedConcurrencyConfig',
        );
      }
    }
  });

  it('lets the provider calls and the queue consumers hold at most 6 of 10, under the 80 % concurrency alarm', () => {
    expect(DEFAULT_OPENAI_MAX_CONCURRENCY).toBe(4);
    for (const [id, { resource }] of appFunctions(template)) {
      const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.PROVIDER_MAX_CONCURRENCY, id).toBe(String(DEFAULT_OPENAI_MAX_CONCURRENCY));
    }
    // What runs for long at once: every provider call (60-150 s each) and each SQS consumer at its mapping's maximum.
    const consumers = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).map(
      (m) =>
        ((m as { Properties: Props }).Properties.ScalingConfig as { MaximumConcurrency: number })
          .MaximumConcurrency,
    );
    expect(consumers.length).toBeGreaterThan(0);
    const held = DEFAULT_OPENAI_MAX_CONCURRENCY + consumers.reduce((sum, n) => sum + n, 0);
    expect(held).toBeLessThanOrEqual(6);
    expect(held).toBeLessThan((NEW_ACCOUNT_CONCURRENCY * THRESHOLDS.concurrencyPercent) / 100);
  });

  it('takes a larger provider concurrency from context once the quota is raised', () => {
    const { template: raised } = testStack({ stage: 'dev', providerMaxConcurrency: 20 }, 'Raised-dev');
    for (const [id, { resource }] of appFunctions(raised)) {
      const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.PROVIDER_MAX_CONCURRENCY, id).toBe('20');
    }
  });
});
