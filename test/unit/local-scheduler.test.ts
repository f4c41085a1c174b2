import { describe, expect, it } from 'vitest';
import { ratePeriodMs } from '../../infrastructure/local/stand-ins/eventbridge-scheduler/scheduler';

describe('the local EventBridge Scheduler stand-in', () => {
  it('reads rate expressions as Scheduler does, and refuses what it cannot run', () => {
    expect(ratePeriodMs('rate(5 minutes)')).toBe(300_000);
    expect(ratePeriodMs('rate(1 hour)')).toBe(3_600_000);
    expect(() => ratePeriodMs('cron(0/5 * * * ? *)')).toThrow(/Unsupported/);
    expect(() => ratePeriodMs('rate(0 minutes)')).toThrow(/Unsupported/);
  });
});
