/**
 * The bench's "vision: identity" section (docs/decisions/002-identity-model.md): each identity model run on the
 * evaluation set (test/bench/identity-set.ts) in a fresh process (test/bench/identity-probe.ts), then every decision
 * the product makes with a descriptor measured the way it is made:
 * - pairs: every two photos (the model's raw separation);
 * - flag: one photo against the mean of the rest of its set (`different_person`, leave one out);
 * - gate: one face against a customer's mean of 3 references (the likeness gate of delivered headshots).
 * For each: both similarity distributions, the equal-error rate, and the threshold with at most 1 % false accepts at
 * the fewest false rejects, with FAR and FRR there; and CPU ms per face.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { DIFFERENT_PERSON_COSINE, SAME_PERSON_PAIR_COSINE } from '../../functions/domain/likeness';
import {
  decisionMetrics,
  gateComparisons,
  leaveOneOutComparisons,
  pairComparisons,
  type DecisionMetrics,
  type Distribution,
} from './identity-metrics';
import { IDENTITY_MODELS, type IdentityModel, type IdentityProbe } from './identity-set';
import { smallSetCells, smallSetTable, type SetRuleName, type SmallSetCell } from './identity-small-sets';
import type { Row } from './rows';
import { median, ms } from './stats';

/** Most false accepts a calibrated decision may have (issue 24: at most 1 %). */
export const MAX_FALSE_ACCEPTS = 0.01;

/** One model's figures. */
export interface IdentityModelFigures {
  model: IdentityModel;
  /** Loading detector, mesh and descriptor model in a fresh process, ms. */
  initMs: number;
  photos: number;
  /** Photos where no face with a descriptor was found (left out of the comparisons). */
  missing: string[];
  /** Median CPU time of the descriptor alone (crop included), ms per face. */
  descriptorMs: number;
  /** Median of detection + mesh + descriptor, ms per face. */
  totalMs: number;
  pairs: DecisionMetrics;
  flag: DecisionMetrics;
  gate: DecisionMetrics;
  /**
   * The identity check on sets of 2-10 photos with 0-2 of another person, each rule at this model's thresholds
   * (the product's for the product's model): docs/decisions/012-small-set-identity.md.
   */
  smallSets: SmallSetCell[];
}

/** The section's figures. */
export interface IdentityFigures {
  models: IdentityModelFigures[];
}

/** Runs one model's probe in a fresh Node process and reads its JSON line. */
function probe(model: IdentityModel): IdentityProbe {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'test/bench/identity-probe.ts'), model],
    { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as IdentityProbe;
}

/** The figures of one probe's output (pure: the unit of the section). */
export function identityFigures(result: IdentityProbe): IdentityModelFigures {
  const set = result.photos.flatMap((p) => (p.descriptor ? [{ ...p, descriptor: p.descriptor }] : []));
  const pairs = decisionMetrics(pairComparisons(set), MAX_FALSE_ACCEPTS);
  const flag = decisionMetrics(leaveOneOutComparisons(set), MAX_FALSE_ACCEPTS);
  const thresholds =
    result.model === 'faceapi-resnet128'
      ? { flag: DIFFERENT_PERSON_COSINE, pair: SAME_PERSON_PAIR_COSINE }
      : { flag: flag.atTarget.threshold, pair: pairs.atTarget.threshold };
  return {
    model: result.model,
    initMs: result.initMs,
    photos: result.photos.length,
    missing: result.photos.filter((p) => !p.descriptor).map((p) => p.file),
    descriptorMs: median(set.map((p) => p.descriptorMs)),
    totalMs: median(set.map((p) => p.totalMs)),
    pairs,
    flag,
    gate: decisionMetrics(gateComparisons(set), MAX_FALSE_ACCEPTS),
    // The product's model is measured closely; the others (not calibrated for these rules) more cheaply.
    smallSets: smallSetCells(set, thresholds, { perCell: result.model === 'faceapi-resnet128' ? 2000 : 500 }),
  };
}

/** Measures every model (or those named in BENCH_IDENTITY_MODELS, comma-separated), one process each. */
export function benchIdentity(): IdentityFigures {
  const only = (process.env.BENCH_IDENTITY_MODELS ?? '').split(',').filter(Boolean);
  const models = IDENTITY_MODELS.filter((m) => only.length === 0 || only.includes(m));
  return { models: models.map((m) => identityFigures(probe(m))) };
}

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const f3 = (value: number) => value.toFixed(3);
const spread = (d: Distribution) =>
  `${f3(d.min)} / ${f3(d.p5)} / ${f3(d.median)} / ${f3(d.p95)} / ${f3(d.max)}`;
const point = (d: DecisionMetrics) =>
  `${f3(d.atTarget.threshold)}: FAR ${pct(d.atTarget.far)}, FRR ${pct(d.atTarget.frr)}`;

/** The worst share of a small-set figure over the sets where the customer is the majority, in % text. */
function worstSmallSet(m: IdentityModelFigures, rule: SetRuleName): string {
  const cells = m.smallSets.filter((c) => c.sets > 0 && c.size - c.intruders > c.intruders);
  const worst = (key: 'miss' | 'falseFlag' | 'warned') =>
    pct(Math.max(...cells.filter((c) => key !== 'miss' || c.intruders > 0).map((c) => c.rules[rule][key])));
  return `${worst('miss')} / ${worst('falseFlag')} / ${worst('warned')}`;
}

/**
 * The main bench table's rows: per model, the gate's and the flag's errors, the small-set check's worst misses,
 * false flags and warnings (customer in the majority), and the time per face.
 */
export function identityRows(figures: IdentityFigures): Row[] {
  return figures.models.flatMap((m): Row[] => [
    [
      'vision: identity',
      `${m.model}: EER pairs / flag / gate`,
      `${pct(m.pairs.eer)} / ${pct(m.flag.eer)} / ${pct(m.gate.eer)}`,
      `flag ${point(m.flag)}`,
      `gate ${point(m.gate)}`,
    ],
    [
      'vision: identity',
      `${m.model}: sets of 2-10 photos, 0-2 of another person: worst miss / false flag / warned`,
      worstSmallSet(m, 'medoid anchor (product)'),
      `before (leave-one-out): ${worstSmallSet(m, 'leave-one-out (before)')}`,
      '',
    ],
    [
      'vision: identity',
      `${m.model}: ms per face (descriptor; detection + descriptor)`,
      ms(m.descriptorMs),
      ms(m.totalMs),
      `init ${ms(m.initMs)}`,
    ],
  ]);
}

/** The section's own table: every figure the decision record quotes, one row per model and decision. */
export function identityTable(figures: IdentityFigures): string {
  const header = [
    'model',
    'decision',
    'genuine min / p5 / median / p95 / max',
    'impostor min / p5 / median / p95 / max',
    'EER',
    'threshold (FAR ≤ 1 %)',
    'FAR',
    'FRR',
  ];
  const lines = figures.models.flatMap((m) =>
    (['pairs', 'flag', 'gate'] as const).map((decision) => {
      const d = m[decision];
      return [
        m.model,
        `${decision} (${d.genuine.count} genuine, ${d.impostor.count} impostor)`,
        spread(d.genuine),
        spread(d.impostor),
        pct(d.eer),
        f3(d.atTarget.threshold),
        pct(d.atTarget.far),
        pct(d.atTarget.frr),
      ];
    }),
  );
  const costs = figures.models.map((m) => [
    m.model,
    ms(m.descriptorMs),
    ms(m.totalMs),
    ms(m.initMs),
    m.missing.length ? m.missing.join(', ') : '—',
  ]);
  const table = (rows: string[][]) => rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
  return [
    '### vision: identity (cosine similarity; a comparison passes at ≥ threshold)',
    '',
    table([header, header.map(() => '---'), ...lines]),
    '',
    table([
      ['model', 'descriptor ms/face', 'detection + descriptor ms/face', 'init (cold load)', 'no face found'],
      ['---', '---', '---', '---', '---'],
      ...costs,
    ]),
    ...figures.models.flatMap((m) => [
      '',
      `#### ${m.model}: sets of 2-10 photos, 0-2 of another person (docs/decisions/012-small-set-identity.md)`,
      '',
      smallSetTable(m.smallSets),
    ]),
  ].join('\n');
}
