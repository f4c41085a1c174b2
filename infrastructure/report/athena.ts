import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { FUNNEL_STEPS, OUTFIT_NOT_RECORDED, type FunnelRow, type OutfitRow } from './funnel';

/** Where the cloud analytics live: the stack's outputs `AnalyticsDatabase`, `AnalyticsTable`, `AnalyticsWorkGroup`. */
export interface AthenaTarget {
  database: string;
  table: string;
  workGroup: string;
  region?: string;
}

const IDENT = /^[A-Za-z0-9_-]+$/;

/**
 * The funnel as one Athena SQL query over the Glue table (partition `dt` limits the scan to the window): the same
 * rules as `computeFunnel` — a person is an anonymous id joined to the sub its events carried.
 *
 * @throws {Error} for a database or table name that is not a plain identifier
 */
export function funnelQuery(
  target: Pick<AthenaTarget, 'database' | 'table'>,
  dates: readonly string[],
): string {
  if (!IDENT.test(target.database) || !IDENT.test(target.table))
    throw new Error('Invalid database or table name');
  const from = dates[0]!;
  const to = dates[dates.length - 1]!;
  const steps = FUNNEL_STEPS.map(
    (s, i) => `max(CASE WHEN event_name = '${s.event}' THEN 1 ELSE 0 END) AS s${i}`,
  ).join(',\n    ');
  return `WITH ev AS (
  SELECT event_name, anonymous_id, user_sub FROM "${target.database}"."${target.table}"
  WHERE dt BETWEEN '${from}' AND '${to}'
), alias AS (
  SELECT user_sub, min(anonymous_id) AS anonymous_id FROM ev
  WHERE user_sub IS NOT NULL AND anonymous_id IS NOT NULL GROUP BY user_sub
), people AS (
  SELECT coalesce(ev.anonymous_id, alias.anonymous_id, 'u:' || ev.user_sub) AS person,
    ${steps}
  FROM ev LEFT JOIN alias ON ev.user_sub = alias.user_sub
  GROUP BY 1
)
SELECT ${FUNNEL_STEPS.map(
    (_, i) =>
      `sum(${FUNNEL_STEPS.slice(0, i + 1)
        .map((__, j) => `s${j}`)
        .join(' * ')}) AS c${i}`,
  ).join(', ')}
FROM people`;
}

/**
 * Generations started per outfit (`generation_started`'s `outfit` prop, issue 36) over the window's partitions, as
 * `outfitMix` counts them locally. `element_at` answers NULL for a map without the key (a subscript would fail the
 * query: https://trino.io/docs/current/functions/map.html#element_at).
 *
 * @throws {Error} for a database or table name that is not a plain identifier
 */
export function outfitQuery(
  target: Pick<AthenaTarget, 'database' | 'table'>,
  dates: readonly string[],
): string {
  if (!IDENT.test(target.database) || !IDENT.test(target.table))
    throw new Error('Invalid database or table name');
  return `SELECT coalesce(element_at(props, 'outfit'), '${OUTFIT_NOT_RECORDED}') AS outfit, count(*) AS generations
FROM "${target.database}"."${target.table}"
WHERE dt BETWEEN '${dates[0]!}' AND '${dates[dates.length - 1]!}' AND event_name = 'generation_started'
GROUP BY 1 ORDER BY 2 DESC`;
}

/**
 * Runs one query in Athena and answers its data rows (the header row left out), each as its cells' text.
 *
 * @throws {Error} when the query fails or is cancelled, with Athena's reason
 */
async function runQuery(target: AthenaTarget, sql: string): Promise<string[][]> {
  const athena = new AthenaClient(target.region ? { region: target.region } : {});
  try {
    const { QueryExecutionId } = await athena.send(
      new StartQueryExecutionCommand({ QueryString: sql, WorkGroup: target.workGroup }),
    );
    for (;;) {
      const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
      const state = QueryExecution?.Status?.State;
      if (state === 'SUCCEEDED') break;
      if (state === 'FAILED' || state === 'CANCELLED')
        throw new Error(`Athena query ${state}: ${QueryExecution?.Status?.StateChangeReason ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const results = await athena.send(new GetQueryResultsCommand({ QueryExecutionId }));
    // Row 0 is the header.
    return (results.ResultSet?.Rows ?? [])
      .slice(1)
      .map((row) => (row.Data ?? []).map((d) => d.VarCharValue ?? ''));
  } finally {
    athena.destroy();
  }
}

/**
 * Runs the outfit query ({@link outfitQuery}) in Athena.
 *
 * @throws {Error} when the query fails or is cancelled, with Athena's reason
 */
export async function athenaOutfitMix(target: AthenaTarget, dates: readonly string[]): Promise<OutfitRow[]> {
  const rows = await runQuery(target, outfitQuery(target, dates));
  return rows.map(([outfit, generations]) => ({
    outfit: outfit ?? '',
    generations: Number(generations ?? 0),
  }));
}

/**
 * Runs the funnel query in Athena and returns the rows.
 *
 * @throws {Error} when the query fails or is cancelled, with Athena's reason
 */
export async function athenaFunnel(target: AthenaTarget, dates: readonly string[]): Promise<FunnelRow[]> {
  const rows = await runQuery(target, funnelQuery(target, dates));
  const counts = (rows[0] ?? []).map((cell) => Number(cell || 0));
  return FUNNEL_STEPS.map((step, i) => {
    const count = counts[i] ?? 0;
    const previous = counts[i - 1];
    return {
      label: step.label,
      count,
      fromPrevious: i === 0 || !previous ? null : count / previous,
      fromVisitors: i === 0 || !counts[0] ? null : count / counts[0],
    };
  });
}
