import { describe, expect, it } from 'vitest';
import { checkProviderCalendar } from '../../../functions/use-cases/check-provider-calendar';
import { daysUntil, shutdownStanding } from '../../../functions/domain/provider-calendar';
import { FakeProviderCalendar } from './fakes/provider-calendar';

const TODAY = new Date('2026-11-29T10:00:00Z');
const MODEL = 'gpt-image-2.6-sunburst';

describe("checkProviderCalendar: the configured model's shutdown date, once a day", () => {
  it('no shutdown announced: publishes 0 and no days, reads the configured model once', async () => {
    const calendar = new FakeProviderCalendar();
    const result = await checkProviderCalendar(TODAY, calendar);
    expect(result).toEqual({ status: 'none', model: MODEL, shutdownDate: null });
    expect(calendar.reads).toEqual([MODEL]);
    expect(calendar.published).toEqual([{ model: MODEL, scheduled: 0, shutdownDate: null }]);
  });

  it('a shutdown date appears (3 months away): publishes 1 and the days left, status announced', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.shutdownDates.set(MODEL, '2027-03-01');
    const result = await checkProviderCalendar(TODAY, calendar);
    expect(result).toEqual({ status: 'announced', model: MODEL, shutdownDate: '2027-03-01', daysLeft: 92 });
    expect(calendar.published).toEqual([
      { model: MODEL, scheduled: 1, daysLeft: 92, shutdownDate: '2027-03-01' },
    ]);
  });

  it('30 days before the shutdown it is imminent; 31 days before it is not yet', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.shutdownDates.set(MODEL, '2026-12-29');
    expect(await checkProviderCalendar(TODAY, calendar)).toMatchObject({ status: 'imminent', daysLeft: 30 });
    calendar.shutdownDates.set(MODEL, '2026-12-30');
    expect(await checkProviderCalendar(TODAY, calendar)).toMatchObject({ status: 'announced', daysLeft: 31 });
    expect(calendar.published.map((r) => r.daysLeft)).toEqual([30, 31]);
  });

  it('checks the model the configuration names, not the default', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.configured = { provider: 'openai', model: 'gpt-image-1.5', hasApiKey: true };
    calendar.shutdownDates.set('gpt-image-1.5', '2026-12-01');
    const result = await checkProviderCalendar(TODAY, calendar);
    expect(calendar.reads).toEqual(['gpt-image-1.5']);
    expect(result).toEqual({
      status: 'imminent',
      model: 'gpt-image-1.5',
      shutdownDate: '2026-12-01',
      daysLeft: 2,
    });
  });

  it('a model OpenAI no longer serves (404): published as a shutdown today, status not_found', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.configured = { provider: 'openai', model: 'gpt-image-1', hasApiKey: true };
    const result = await checkProviderCalendar(TODAY, calendar);
    expect(result).toEqual({ status: 'not_found', model: 'gpt-image-1', shutdownDate: null, daysLeft: 0 });
    expect(calendar.published).toEqual([
      { model: 'gpt-image-1', scheduled: 1, daysLeft: 0, shutdownDate: null },
    ]);
  });

  it('the offline provider: asks nothing, publishes nothing, says so', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.configured = { provider: 'local', model: MODEL, hasApiKey: false };
    const result = await checkProviderCalendar(TODAY, calendar);
    expect(result).toEqual({ status: 'skipped', reason: 'local_provider', model: MODEL });
    expect(calendar.reads).toEqual([]);
    expect(calendar.published).toEqual([]);
  });

  it('openai without a key: asks nothing, publishes nothing, skipped with its reason', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.configured = { provider: 'openai', model: MODEL, hasApiKey: false };
    expect(await checkProviderCalendar(TODAY, calendar)).toEqual({
      status: 'skipped',
      reason: 'no_api_key',
      model: MODEL,
    });
    expect(calendar.reads).toEqual([]);
    expect(calendar.published).toEqual([]);
  });

  it('a failing read (a wrong key, OpenAI down) is thrown and nothing is published', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.failWith = Object.assign(new Error('401 Incorrect API key provided'), { status: 401 });
    await expect(checkProviderCalendar(TODAY, calendar)).rejects.toThrow('401 Incorrect API key');
    expect(calendar.published).toEqual([]);
  });

  it('a shutdown_date that is not a date is thrown, nothing published', async () => {
    const calendar = new FakeProviderCalendar();
    calendar.shutdownDates.set(MODEL, 'soon');
    await expect(checkProviderCalendar(TODAY, calendar)).rejects.toThrow('Not a YYYY-MM-DD date');
    expect(calendar.published).toEqual([]);
  });
});

describe('provider calendar rules (domain/provider-calendar.ts)', () => {
  it('counts whole UTC days: 0 on the shutdown day, negative after it, whatever the hour', () => {
    expect(daysUntil('2026-11-29', new Date('2026-11-29T23:59:59Z'))).toBe(0);
    expect(daysUntil('2026-11-28', TODAY)).toBe(-1);
    expect(daysUntil('2027-11-29', TODAY)).toBe(365);
  });

  it('no date, null or empty: none announced', () => {
    expect(shutdownStanding(null, TODAY)).toEqual({ status: 'none' });
    expect(shutdownStanding(undefined, TODAY)).toEqual({ status: 'none' });
    expect(shutdownStanding('', TODAY)).toEqual({ status: 'none' });
  });
});
