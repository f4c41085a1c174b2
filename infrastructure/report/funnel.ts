import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalyticsRecord } from '../../functions/domain/analytics';
import { OUTFITS } from '../../functions/domain/outfits';

/**
 * The acquisition funnel (docs/architecture.md, "Analytics"): visitors → sign-ups → first generation → first
 * purchase. A person is one browser (`anonymous_id`) joined to the Cognito `sub` any of its events carried, so a
 * server-side `purchase_completed` (which knows only the sub) counts for the visitor who made it. Each step counts
 * the people of the previous step who also did that step's event within the window.
 */

/** The four steps and the event that marks each. */
export const FUNNEL_STEPS = [
  { label: 'Visitors', event: 'page_view' },
  { label: 'Sign-ups', event: 'sign_up' },
  { label: 'First generation', event: 'generation_started' },
  { label: 'First purchase', event: 'purchase_completed' },
] as const;

/** One row of the report: people at the step, and the conversion from the previous step and from visitors (0-1). */
export interface FunnelRow {
  label: string;
  count: number;
  /** `null` for the first step, and when the previous step had nobody. */
  fromPrevious: number | null;
  fromVisitors: number | null;
}

/** What the funnel reads of each stored record (`AnalyticsRecord`); files may hold names it does not know. */
type FunnelInput = Pick<AnalyticsRecord, 'anonymous_id' | 'user_sub'> & {
  event_name: string;
  props?: Record<string, string>;
};

const percent = (x: number | null) => (x === null ? '' : `${(x * 100).toFixed(1)}%`);

/** The outfit of a `generation_started` sent before the wizard had one (or by an older client). */
export const OUTFIT_NOT_RECORDED = 'not recorded';

/** Generations started with one outfit (issue 36: `generation_started` carries `outfit`). */
export interface OutfitRow {
  outfit: string;
  generations: number;
}

/**
 * Generations started per outfit over records (already limited to the window): every outfit of
 * functions/domain/outfits.ts in its order (0 included), then {@link OUTFIT_NOT_RECORDED} when some carried none.
 */
export function outfitMix(records: Iterable<FunnelInput>): OutfitRow[] {
  const counts = new Map<string, number>(OUTFITS.map((outfit) => [outfit, 0]));
  for (const r of records) {
    if (r.event_name !== 'generation_started') continue;
    const outfit = r.props?.outfit ?? OUTFIT_NOT_RECORDED;
    counts.set(outfit, (counts.get(outfit) ?? 0) + 1);
  }
  if (counts.get(OUTFIT_NOT_RECORDED) === 0) counts.delete(OUTFIT_NOT_RECORDED);
  return [...counts].map(([outfit, generations]) => ({ outfit, generations }));
}

/** The outfit mix as text: one line per outfit with its generations and share of all. */
export function formatOutfitMix(rows: readonly OutfitRow[]): string {
  const total = rows.reduce((sum, r) => sum + r.generations, 0);
  const width = Math.max(...rows.map((r) => r.outfit.length));
  const lines = rows.map(
    (r) =>
      `${r.outfit.padEnd(width)} ${String(r.generations).padStart(7)}   ${percent(total ? r.generations / total : null).padStart(6)}`,
  );
  return `Generations by outfit\n${lines.join('\n')}\n`;
}

/** Counts the funnel over records (already limited to the window). */
export function computeFunnel(records: Iterable<FunnelInput>): FunnelRow[] {
  // Union-find over identities: `a:<anonymous id>` and `u:<sub>` joined whenever one event carries both.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root) ?? (parent.set(root, root), root);
    parent.set(x, root);
    return root;
  };
  const union = (a: string, b: string) => parent.set(find(a), find(b));
  const events: { ids: string[]; name: string }[] = [];
  for (const r of records) {
    const ids = [r.anonymous_id && `a:${r.anonymous_id}`, r.user_sub && `u:${r.user_sub}`].filter(
      (x): x is string => !!x,
    );
    if (ids.length === 0) continue;
    ids.forEach(find);
    if (ids.length === 2) union(ids[0]!, ids[1]!);
    events.push({ ids, name: r.event_name });
  }
  const didByPerson = new Map<string, Set<string>>();
  for (const e of events) {
    const person = find(e.ids[0]!);
    didByPerson.set(person, (didByPerson.get(person) ?? new Set()).add(e.name));
  }
  const rows: FunnelRow[] = [];
  let people = [...didByPerson.values()];
  for (const [i, step] of FUNNEL_STEPS.entries()) {
    people = people.filter((did) => did.has(step.event));
    const previous = rows[i - 1]?.count;
    const visitors = rows[0]?.count;
    rows.push({
      label: step.label,
      count: people.length,
      fromPrevious: i === 0 || !previous ? null : people.length / previous,
      fromVisitors: i === 0 || !visitors ? null : people.length / visitors,
    });
  }
  return rows;
}

/** The UTC dates (`YYYY-MM-DD`) of the last `days` days, today included, oldest first. */
export function windowDates(days: number, now: Date = new Date()): string[] {
  return Array.from({ length: days }, (_, i) =>
    new Date(now.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * Reads the local analytics files `<dir>/<date>.jsonl` of the window; a line that is not JSON is skipped (a file
 * cut short by a crash must not stop the report).
 */
export function readLocalRecords(dir: string, dates: readonly string[]): FunnelInput[] {
  if (!existsSync(dir)) return [];
  const wanted = new Set(dates.map((d) => `${d}.jsonl`));
  const records: FunnelInput[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => wanted.has(f))
    .sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        records.push(JSON.parse(line) as FunnelInput);
      } catch {
        // skipped: see the docstring
      }
    }
  }
  return records;
}

/** The report as text: one line per step with its count and conversion rates. */
export function formatFunnel(rows: readonly FunnelRow[], title: string): string {
  const width = Math.max(...rows.map((r) => r.label.length));
  const lines = rows.map((r, i) => {
    const label = r.label.padEnd(width);
    const count = String(r.count).padStart(7);
    if (i === 0) return `${label} ${count}`;
    return `${label} ${count}   ${percent(r.fromPrevious).padStart(6)} of previous step   ${percent(r.fromVisitors).padStart(6)} of visitors`;
  });
  return `${title}\n${lines.join('\n')}\n`;
}
