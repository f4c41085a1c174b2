/**
 * Prints the identity check of warning photos at the thresholds compared in
 * docs/decisions/023-verified-references.md, as two Markdown tables (test/bench/identity-warnings.ts): round 1, the
 * thresholds under which a warning photo is someone else (every row with round 1's references: any photo not
 * flagged); round 2, at the product's, the thresholds a warning photo must reach to be a reference. Reads a probe's
 * JSON line from the path in argv[2] when given, else runs test/bench/identity-warnings-probe.ts in a fresh process
 * (the face models, about 2 minutes on the 2-core machine):
 * `node --import tsx test/bench/identity-warnings-report.ts [probe.json]`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { DIFFERENT_PERSON_COSINE, SAME_PERSON_PAIR_COSINE } from '../../functions/domain/likeness';
import { WARNING_THRESHOLDS } from '../../functions/domain/warning-identity';
import { referenceTable, warningFigures, warningTable, type WarningProbe } from './identity-warnings';

/** Round 1's references: every warning photo that is not flagged may be one. */
const ANY = { mean: -1, each: -1 };

/** Before (-1: warning photos sit out), one threshold for both kinds, and the product's pair. */
const FLAGS = [
  { light: -1, detail: -1 },
  { light: 0.85, detail: 0.85 },
  { light: 0.88, detail: 0.88 },
  { light: 0.9, detail: 0.9 },
  { light: 0.91, detail: 0.91 },
  { light: 0.92, detail: 0.92 },
  { light: 0.92, detail: 0.88 },
  { light: WARNING_THRESHOLDS.light, detail: WARNING_THRESHOLDS.detail },
].map((t) => ({ ...t, reference: ANY }));

/**
 * Round 1 (any photo not flagged), the identity check's own thresholds (0.941 against the mean, 0.931 against each
 * photo), stricter ones against the mean or against each agreeing photo, both, never (1.01: no cosine reaches it),
 * and the product's.
 */
const REFERENCES = [
  ANY,
  { mean: DIFFERENT_PERSON_COSINE, each: SAME_PERSON_PAIR_COSINE },
  { mean: 0.95, each: -1 },
  { mean: 0.952, each: -1 },
  { mean: 0.955, each: -1 },
  { mean: -1, each: 0.935 },
  { mean: -1, each: 0.938 },
  { mean: -1, each: 0.94 },
  { mean: -1, each: 0.942 },
  { mean: -1, each: 0.945 },
  { mean: -1, each: 0.95 },
  { mean: 1.01, each: -1 },
  WARNING_THRESHOLDS.reference,
].map((reference) => ({ light: WARNING_THRESHOLDS.light, detail: WARNING_THRESHOLDS.detail, reference }));

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
console.log(warningTable(FLAGS.map((t) => warningFigures(probe, t))));
console.log();
console.log(referenceTable(REFERENCES.map((t) => warningFigures(probe, t))));
