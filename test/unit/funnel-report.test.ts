import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeFunnel, outfitMix, windowDates } from '../../infrastructure/report/funnel';
import { funnelQuery, outfitQuery } from '../../infrastructure/report/athena';
import { testTempDir } from '../helpers/temp-dir';

type Seed = {
  event_name: string;
  anonymous_id: string | null;
  user_sub: string | null;
  received_at: string;
  props?: Record<string, string>;
};

const today = new Date().toISOString().slice(0, 10);
const longAgo = '2020-01-01';

/**
 * Ten visitors; four sign up; three of them generate; two of those buy (one purchase arrives from the server with
 * only the sub). One more person buys without generating (not counted past sign-ups), and an old file is outside
 * the window.
 */
function seed(): Seed[] {
  const rows: Seed[] = [];
  const at = `${today}T10:00:00.000Z`;
  for (let i = 0; i < 10; i++)
    rows.push({ event_name: 'page_view', anonymous_id: `a${i}`, user_sub: null, received_at: at });
  for (const i of [0, 1, 2, 3])
    rows.push({ event_name: 'sign_up', anonymous_id: `a${i}`, user_sub: `u${i}`, received_at: at });
  // Two generations in a blazer, one sent before the wizard had an outfit.
  for (const i of [0, 1, 2])
    rows.push({
      event_name: 'generation_started',
      anonymous_id: `a${i}`,
      user_sub: `u${i}`,
      received_at: at,
      ...(i < 2 ? { props: { outfit: 'blazer' } } : {}),
    });
  rows.push({ event_name: 'generation_started', anonymous_id: 'a0', user_sub: 'u0', received_at: at });
  for (const i of [0, 1, 3])
    rows.push({ event_name: 'purchase_completed', anonymous_id: null, user_sub: `u${i}`, received_at: at });
  return rows;
}

describe('funnel report', () => {
  it('counts people step by step, joining server purchases to visitors through the sub', () => {
    const rows = computeFunnel(seed());
    expect(rows.map((r) => [r.label, r.count])).toEqual([
      ['Visitors', 10],
      ['Sign-ups', 4],
      ['First generation', 3],
      ['First purchase', 2],
    ]);
    expect(rows[1]?.fromPrevious).toBeCloseTo(0.4);
    expect(rows[3]?.fromPrevious).toBeCloseTo(2 / 3);
    expect(rows[3]?.fromVisitors).toBeCloseTo(0.2);
  });

  it('npm run report -- funnel prints the counts and rates of the seeded files within --days', () => {
    const dir = testTempDir('analytics-');
    writeFileSync(
      join(dir, `${today}.jsonl`),
      `${seed()
        .map((r) => JSON.stringify(r))
        .join('\n')}\n{broken\n`,
    );
    const old = Array.from({ length: 5 }, (_, i) => ({
      event_name: 'page_view',
      anonymous_id: `old${i}`,
      user_sub: null,
    }));
    writeFileSync(join(dir, `${longAgo}.jsonl`), old.map((r) => JSON.stringify(r)).join('\n'));
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'infrastructure/report/cli.ts', 'funnel', '--days', '7', '--dir', dir],
      { encoding: 'utf8' },
    );
    expect(out).toMatch(/^Visitors\s+10$/m);
    expect(out).toMatch(/^Sign-ups\s+4\s+40\.0% of previous step\s+40\.0% of visitors$/m);
    expect(out).toMatch(/^First generation\s+3\s+75\.0% of previous step\s+30\.0% of visitors$/m);
    expect(out).toMatch(/^First purchase\s+2\s+66\.7% of previous step\s+20\.0% of visitors$/m);
    expect(out).toMatch(/^Generations by outfit$/m);
    expect(out).toMatch(/^blazer\s+2\s+50\.0%$/m);
    expect(out).toMatch(/^not recorded\s+2\s+50\.0%$/m);
  });

  it('counts generations per outfit: every outfit listed, and those sent without one apart', () => {
    expect(outfitMix(seed())).toEqual([
      { outfit: 'own-clothing', generations: 0 },
      { outfit: 'suit-and-tie', generations: 0 },
      { outfit: 'blazer', generations: 2 },
      { outfit: 'shirt', generations: 0 },
      { outfit: 'knitwear', generations: 0 },
      { outfit: 'not recorded', generations: 2 },
    ]);
    const sql = outfitQuery({ database: 'headshot_analytics', table: 'events' }, [
      '2026-03-04',
      '2026-03-10',
    ]);
    expect(sql).toContain("element_at(props, 'outfit')");
    expect(sql).toContain(`dt BETWEEN '2026-03-04' AND '2026-03-10' AND event_name = 'generation_started'`);
    expect(() => outfitQuery({ database: 'events', table: 'x y' }, ['2026-03-04'])).toThrow();
  });

  it('the Athena query scans only the window partitions and refuses odd identifiers', () => {
    const dates = windowDates(7, new Date('2026-03-10T12:00:00Z'));
    expect(dates).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    const sql = funnelQuery({ database: 'headshot_analytics', table: 'events' }, dates);
    expect(sql).toContain(`dt BETWEEN '2026-03-04' AND '2026-03-10'`);
    expect(sql).toContain('sum(s0 * s1 * s2 * s3) AS c3');
    expect(() => funnelQuery({ database: 'x"; DROP', table: 'events' }, dates)).toThrow();
  });
});
