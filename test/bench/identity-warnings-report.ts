/**
 * Prints the identity check of warning photos at the thresholds compared in
 * docs/decisions/023-verified-references.md, as a Markdown table (test/bench/identity-warnings.ts). Reads a probe's
 * JSON line from the path in argv[2] when given, else runs test/bench/identity-warnings-probe.ts in a fresh process
 * (the face models, about 2 minutes on the 2-core machine):
 * `node --import tsx test/bench/identity-warnings-report.ts [probe.json]`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { WARNING_THRESHOLDS } from '../../functions/domain/warning-identity';
import { warningFigures, warningTable, type WarningProbe } from './identity-warnings';

/** Before (-1: warning photos sit out), one threshold for both kinds, and the product's pair. */
const COMPARED = [
  { light: -1, detail: -1 },
  { light: 0.85, detail: 0.85 },
  { light: 0.88, detail: 0.88 },
  { light: 0.9, detail: 0.9 },
  { light: 0.91, detail: 0.91 },
  { light: 0.92, detail: 0.92 },
  { light: 0.92, detail: 0.88 },
  WARNING_THRESHOLDS,
];

const line = process.argv[2]
  ? readFileSync(process.argv[2], 'utf8')
  : execFileSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'test/bench/identity-warnings-probe.ts')],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
const probe = JSON.parse(line.trim().split('\n').at(-1)!) as WarningProbe;
console.log(warningTable(COMPARED.map((t) => warningFigures(probe, t))));
