import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { ms, ratio } from './stats';

/** The vision module's figures: cold start, photo checks cold and warm, offline renders. */
export interface VisionFigures {
  /** Loading the models (wasm backend, files from disk), ms. */
  initMs: number;
  /** The first photo check in a fresh process (init included), ms. */
  coldMs: number;
  /** Every fixture JPEG checked again with the models loaded, ms each. */
  warm: number[];
  photos: string[];
  /** One offline headshot per background (the reference already analysed), ms each. */
  renders: number[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Runs test/bench/vision-probe.ts in a fresh Node process (a real cold start) and reads its figures. */
export function benchVision(): VisionFigures {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'test/bench/vision-probe.ts')],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as VisionFigures;
}

type Row = [string, string, string, string, string];

/** The bench table's rows for the vision module. */
export function visionRows(v: VisionFigures): Row[] {
  const warm = median(v.warm);
  return [
    ['vision', 'cold init (models + wasm from disk)', ms(v.initMs), '—', '—'],
    [
      'photo check',
      'per photo, cold (fresh process, init included)',
      ms(v.coldMs),
      `warm ${ms(warm)}`,
      ratio(v.coldMs, warm),
    ],
    [
      'photo check',
      `per photo, warm (median of ${v.warm.length} fixtures; ${ms(Math.min(...v.warm))}-${ms(Math.max(...v.warm))})`,
      ms(warm),
      '—',
      '—',
    ],
    [
      'offline render',
      'per headshot (median of the 4 backgrounds, reference analysed)',
      ms(median(v.renders)),
      `photo check ${ms(warm)}`,
      ratio(median(v.renders), warm),
    ],
  ];
}
