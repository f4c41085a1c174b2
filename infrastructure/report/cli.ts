/**
 * `npm run report -- funnel [--days 7] [--cloud] [--dir <folder>]`: the acquisition funnel (visitors → sign-ups →
 * first generation → first purchase) with conversion rates, then the generations started per outfit (issue 36), from the local analytics files (`.local/analytics` or
 * `ANALYTICS_DIR`) or, with `--cloud`, from Athena (`ANALYTICS_DATABASE`, `ANALYTICS_TABLE`,
 * `ANALYTICS_WORKGROUP`: the stack's outputs of the same names).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../local/support/paths';
import { athenaFunnel, athenaOutfitMix } from './athena';
import {
  computeFunnel,
  formatFunnel,
  formatOutfitMix,
  outfitMix,
  readLocalRecords,
  windowDates,
} from './funnel';

const USAGE = 'usage: npm run report -- funnel [--days 7] [--cloud] [--dir <folder>]';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { days: { type: 'string', default: '7' }, cloud: { type: 'boolean' }, dir: { type: 'string' } },
  });
  if (positionals[0] !== 'funnel') {
    console.error(USAGE);
    return 2;
  }
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 366) {
    console.error(`--days must be a whole number from 1 to 366. ${USAGE}`);
    return 2;
  }
  const dates = windowDates(days);
  const window = `${dates[0]} to ${dates[dates.length - 1]} (UTC)`;
  if (values.cloud) {
    const { ANALYTICS_DATABASE, ANALYTICS_TABLE, ANALYTICS_WORKGROUP } = process.env;
    if (!ANALYTICS_DATABASE || !ANALYTICS_TABLE || !ANALYTICS_WORKGROUP) {
      console.error(
        'Set ANALYTICS_DATABASE, ANALYTICS_TABLE and ANALYTICS_WORKGROUP from the stack outputs to report from Athena.',
      );
      return 2;
    }
    const rows = await athenaFunnel(
      { database: ANALYTICS_DATABASE, table: ANALYTICS_TABLE, workGroup: ANALYTICS_WORKGROUP },
      dates,
    );
    const target = { database: ANALYTICS_DATABASE, table: ANALYTICS_TABLE, workGroup: ANALYTICS_WORKGROUP };
    process.stdout.write(formatFunnel(rows, `Funnel, last ${days} days, ${window}, from Athena`));
    process.stdout.write(`\n${formatOutfitMix(await athenaOutfitMix(target, dates))}`);
    return 0;
  }
  const dir = values.dir ?? process.env.ANALYTICS_DIR ?? join(REPO_ROOT, '.local', 'analytics');
  const records = readLocalRecords(dir, dates);
  process.stdout.write(
    formatFunnel(computeFunnel(records), `Funnel, last ${days} days, ${window}, from ${dir}`),
  );
  process.stdout.write(`\n${formatOutfitMix(outfitMix(records))}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
