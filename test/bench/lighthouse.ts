import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';

const run = promisify(execFile);

/** Lighthouse's four category scores (0-100) and the metrics behind performance for one page and form factor. */
export interface LighthouseFigures {
  path: string;
  formFactor: 'mobile' | 'desktop';
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** First Contentful Paint, Largest Contentful Paint, Total Blocking Time (ms) and Cumulative Layout Shift. */
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Titles of the audits that did not pass (score < 1) in the accessibility, best-practices and SEO categories. */
  failed: string[];
  /**
   * Lighthouse's `environment.benchmarkIndex` of the host: how fast this machine ran its fixed CPU loop at the start
   * of the run (higher is faster). Scores of runs on machines with different indexes are not comparable.
   * https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md#benchmarking-cpu-power
   */
  benchmarkIndex: number;
  /** The 1-minute load average of this machine just before the run (other work sharing its cores). */
  loadAverage: number;
}

/** The median run of several of one page (by performance score, then TBT), with every run's figures. */
export interface LighthouseMedian extends LighthouseFigures {
  /** Every run, in the order they ran. */
  runs: LighthouseFigures[];
}

interface LighthouseResult {
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    { score: number | null; numericValue?: number; title: string; scoreDisplayMode: string }
  >;
}

/**
 * Runs the Lighthouse CLI (the devDependency) against `url` with Debian's Chromium, headless, mobile (Lighthouse's
 * default: Moto G-class device, simulated slow 4G and 4× CPU slowdown) or desktop (`--preset=desktop`).
 */
export async function lighthouse(url: string, formFactor: 'mobile' | 'desktop'): Promise<LighthouseFigures> {
  const [loadAverage = Number.NaN] = loadavg();
  const chrome = chromiumPath();
  if (!chrome) throw new Error('Chromium is not installed (set CHROMIUM_PATH)');
  const args = [
    join(REPO_ROOT, 'node_modules/lighthouse/cli/index.js'),
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--only-categories=performance,accessibility,best-practices,seo',
    `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
  ];
  const { stdout } = await run(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, CHROME_PATH: chrome },
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(stdout) as LighthouseResult;
  const score = (id: string) => Math.round((report.categories[id]?.score ?? Number.NaN) * 100);
  const metric = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const failed = ['accessibility', 'best-practices', 'seo'].flatMap((category) =>
    (report.categories[category]?.auditRefs ?? [])
      .map((ref) => report.audits[ref.id])
      .filter((a) => a && a.scoreDisplayMode === 'binary' && a.score !== null && a.score < 1)
      .map((a) => `${category}: ${a!.title}`),
  );
  return {
    path: new URL(url).pathname,
    formFactor,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    failed,
    benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? Number.NaN),
    loadAverage: Number(loadAverage.toFixed(2)),
  };
}

/**
 * Runs {@link lighthouse} `runs` times on one page and keeps the median run (Lighthouse's own advice for variance:
 * https://github.com/GoogleChrome/lighthouse/blob/main/docs/variability.md), ordered by performance score and, among
 * equal scores, by Total Blocking Time.
 *
 * @throws Error when `runs` < 1, or as {@link lighthouse}
 */
export async function lighthouseMedian(
  url: string,
  formFactor: 'mobile' | 'desktop',
  runs: number,
): Promise<LighthouseMedian> {
  if (runs < 1) throw new Error(`lighthouseMedian: runs must be at least 1 (got ${runs})`);
  const each: LighthouseFigures[] = [];
  for (let i = 0; i < runs; i++) each.push(await lighthouse(url, formFactor));
  const sorted = [...each].sort((a, b) => a.performance - b.performance || b.tbtMs - a.tbtMs);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, runs: each };
}
