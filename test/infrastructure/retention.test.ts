import { describe, expect, it } from 'vitest';
import { catalogueEntry } from '../../functions/catalogue';
import { PHOTO_CHECK_TTL_SECONDS } from '../../functions/adapters/photo-checks';
import {
  ACCESS_LOG_RETENTION_DAYS,
  ANALYTICS_EVENT_RETENTION_DAYS,
  ANALYTICS_WORKING_FILES_RETENTION_DAYS,
  DEV_ACCESS_LOG_RETENTION_DAYS,
  HEADSHOT_FILES_BACKSTOP_DAYS,
  HEADSHOT_RETENTION_DAYS,
  OBJECT_EXPIRY_RULES,
  PHOTO_CHECK_RETENTION_DAYS,
  UPLOAD_RETENTION_DAYS,
  WORK_RETENTION_DAYS,
} from '../../functions/domain/retention';
import { TTL_ATTRIBUTE } from '../../infrastructure/constructs/data';
import { devStack, testStack } from './helpers';

/*
 * Retention stated and enforced from one source (docs/decisions/011-retention.md): every lifecycle rule and TTL the
 * stack deploys has the period functions/domain/retention.ts gives it — the number the Privacy Policy shows.
 */

type Template = ReturnType<typeof devStack>['template'];
interface Rule {
  Id?: string;
  Prefix?: string;
  ExpirationInDays?: number;
  Status?: string;
}

/** The lifecycle rules of the one bucket whose logical id starts with `logicalIdPrefix`, by rule id. */
function rulesOf(template: Template, logicalIdPrefix: string): Record<string, Rule> {
  const buckets = Object.entries(template.findResources('AWS::S3::Bucket')).filter(([id]) =>
    id.startsWith(logicalIdPrefix),
  );
  expect(buckets, logicalIdPrefix).toHaveLength(1);
  const props = buckets[0]![1].Properties as { LifecycleConfiguration?: { Rules: Rule[] } };
  return Object.fromEntries((props.LifecycleConfiguration?.Rules ?? []).map((rule) => [rule.Id, rule]));
}

describe('retention: every lifecycle rule and TTL matches functions/domain/retention.ts', () => {
  const { template } = devStack();

  it('expires uploads, provider work files and headshots by their constants', () => {
    const uploads = rulesOf(template, 'StorageUploadsBucket');
    expect(uploads['expire-uploads']).toMatchObject({
      Prefix: 'uploads/',
      ExpirationInDays: UPLOAD_RETENTION_DAYS,
      Status: 'Enabled',
    });
    const results = rulesOf(template, 'StorageResultsBucket');
    expect(results['expire-work']).toMatchObject({ Prefix: 'work/', ExpirationInDays: WORK_RETENTION_DAYS });
    expect(results['expire-headshots']).toMatchObject({
      Prefix: 'results/',
      ExpirationInDays: HEADSHOT_RETENTION_DAYS + HEADSHOT_FILES_BACKSTOP_DAYS,
      Status: 'Enabled',
    });
  });

  it('deploys every rule the local stack applies by hand (OBJECT_EXPIRY_RULES), with the same prefix and days', () => {
    for (const rule of OBJECT_EXPIRY_RULES) {
      const bucket = rule.bucket === 'uploads' ? 'StorageUploadsBucket' : 'StorageResultsBucket';
      const deployed = Object.values(rulesOf(template, bucket)).find((r) => r.Prefix === rule.prefix);
      expect(deployed, `${rule.bucket} ${rule.prefix}`).toMatchObject({ ExpirationInDays: rule.days });
    }
  });

  it('expires analytics events, query results and delivery errors by their constants', () => {
    const analytics = rulesOf(template, 'AnalyticsBucket');
    expect(analytics['expire-events']).toMatchObject({
      Prefix: 'events/',
      ExpirationInDays: ANALYTICS_EVENT_RETENTION_DAYS,
    });
    for (const id of ['expire-query-results', 'expire-delivery-errors']) {
      expect(analytics[id]?.ExpirationInDays).toBe(ANALYTICS_WORKING_FILES_RETENTION_DAYS);
    }
  });

  it('keeps access logs for their constant: shorter outside production', () => {
    expect(rulesOf(template, 'StorageLogBucket')['expire-logs']?.ExpirationInDays).toBe(
      DEV_ACCESS_LOG_RETENTION_DAYS,
    );
    const prod = testStack(
      { stage: 'production', mailFrom: 'headshots@example.com' },
      'Retention-production',
    );
    expect(rulesOf(prod.template, 'StorageLogBucket')['expire-logs']?.ExpirationInDays).toBe(
      ACCESS_LOG_RETENTION_DAYS,
    );
  });

  it('expires photo checks (face descriptors) by the table TTL a day after their uploads', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    });
    expect(PHOTO_CHECK_TTL_SECONDS).toBe(PHOTO_CHECK_RETENTION_DAYS * 86_400);
    expect(PHOTO_CHECK_RETENTION_DAYS).toBe(UPLOAD_RETENTION_DAYS + 1);
  });

  it('runs the sweeper that deletes headshots past their retention on a schedule, allowed to delete their files', () => {
    const sweeper = catalogueEntry('generation-sweeper');
    expect(sweeper.schedule).toBeDefined();
    expect(sweeper.access.results).toContain('delete');
    const schedules = Object.values(template.findResources('AWS::Scheduler::Schedule'));
    expect(schedules.length).toBeGreaterThan(0);
  });
});
