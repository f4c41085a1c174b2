/**
 * The identity check of warning photos (docs/decisions/023-verified-references.md): photos whose descriptor is
 * unreliable (`too_bright`, `too_dark`, `blurry`, `face_too_small`) sat out the identity check, so an overexposed
 * photo of someone else became a reference. This evaluation adds such photos to the labelled evaluation set
 * (test/bench/identity-set.ts), each degraded copy made from a fixture deterministically with sharp (no committed
 * binaries), and judges sets of a customer's clean photos plus one degraded photo — of another person (impostor) or
 * of the customer (genuine, its source photo left out of the set) — with the product's own rules
 * (functions/domain/photo-checks.ts `checkPhotoSet`, `bestReferences`) at given warning thresholds: those under which
 * a warning photo is someone else (round 1), and those it must reach to be a reference (round 2). The arithmetic
 * is pure, so its unit test (test/unit/identity-warnings.test.ts) runs on hand-made facts; the models run once in
 * test/bench/identity-warnings-probe.ts.
 */
import sharp from 'sharp';
import { cosine, GATE_COSINE, meanDescriptor } from '../../functions/domain/likeness';
import {
  bestReferences,
  checkPhotoSet,
  IDENTITY_THRESHOLDS,
  type PhotoCheck,
  type PhotoFacts,
} from '../../functions/domain/photo-checks';
import type { WarningThresholds } from '../../functions/domain/warning-identity';

/** How a fixture is degraded: overexposed with a strong warm cast, darkened, blurred, its face made small. */
export const DEGRADATIONS = ['overexposed', 'dark', 'blurred', 'small-face'] as const;
export type Degradation = (typeof DEGRADATIONS)[number];

/** A photo of the probe: a fixture as it is (`original`) or one of its degraded copies. */
export interface ProbedPhoto {
  file: string;
  person: string;
  variant: 'original' | Degradation;
  facts: PhotoFacts;
}

/** What test/bench/identity-warnings-probe.ts prints. */
export interface WarningProbe {
  photos: ProbedPhoto[];
}

/**
 * A degraded JPEG copy of `bytes` (deterministic: same bytes, same output):
 * - overexposed: brightness ×1.9 and a warm cast (red up, blue down to 55 %), as a photo in harsh orange light;
 * - dark: every channel ×0.3;
 * - blurred: a Gaussian blur of sigma 1/90 of the width;
 * - small-face: the photo shrunk to 22 % and centred on a grey canvas of its own size.
 */
export async function degrade(bytes: Buffer, how: Degradation): Promise<Buffer> {
  const image = sharp(bytes).rotate();
  const { width = 0, height = 0 } = await image.clone().metadata();
  if (how === 'overexposed')
    return image
      .modulate({ brightness: 1.9 })
      .recomb([
        [1.2, 0.1, 0],
        [0, 1, 0],
        [0, 0, 0.55],
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
  if (how === 'dark') return image.linear(0.3, 0).jpeg({ quality: 90 }).toBuffer();
  if (how === 'blurred')
    return image
      .blur(Math.max(1, width / 90))
      .jpeg({ quality: 90 })
      .toBuffer();
  const w = Math.round(width * 0.22);
  const h = Math.round(height * 0.22);
  const small = await image.resize(w, h).toBuffer();
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  return sharp(small)
    .extend({ left, right: width - w - left, top, bottom: height - h - top, background: '#808080' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Sets with a given number of the customer's clean photos, and what became of their degraded photo. */
export interface ClearPhotoCell {
  impostors: number;
  impostorsUsed: number;
  genuine: number;
  genuineUsed: number;
}

/** The figures at one set of warning thresholds. */
export interface WarningFigures {
  /**
   * The warning photos' thresholds: under `light`/`detail` against the agreeing photos' mean, someone else (-1: they
   * sit out, before round 1); at or over `reference`, a reference (-1: every photo not flagged, round 1).
   */
  warning: WarningThresholds;
  /** Sets with a degraded photo of another person; how many of those photos were flagged `different_person`. */
  impostors: number;
  impostorsFlagged: number;
  /** How many of them were among the 3 references chosen (`bestReferences`). */
  impostorsUsed: number;
  /** Of those, how many were warned `mixed_people` (a degraded copy that got no warning, in a 1 + 1 set). */
  impostorsUsedMixed: number;
  /** Sets with a degraded photo of the customer; how many of those photos were flagged, and used as a reference. */
  genuine: number;
  genuineFlagged: number;
  genuineUsed: number;
  /** Sets of the customer's photos (with a degraded one of theirs) sending fewer references than usable photos (≤ 3). */
  genuineFewer: number;
  /**
   * The likeness gate's side: each of the customer's clean photos left out of a genuine set, against the mean of
   * that set's references (what every headshot is compared with), at or over GATE_COSINE.
   */
  gatePassed: number;
  gateCompared: number;
  /** Per number of the customer's clean photos in the set (1-4). */
  byClearPhotos: Record<string, ClearPhotoCell>;
  /** The customer's clean photos in all the sets, and how many of them were flagged. */
  clean: number;
  cleanFlagged: number;
  /** Per degradation: impostor photos flagged / judged. */
  byDegradation: Record<string, { impostors: number; flagged: number }>;
}

const REFERENCES = 3;

const hasCode = (check: PhotoCheck, code: string) => check.reasons.some((r) => r.code === code);

/** One set judged: the customer's clean photos, the degraded photo added, and (genuine sets) the photos left out. */
interface JudgedSet {
  own: readonly ProbedPhoto[];
  extra: ProbedPhoto;
  checks: PhotoCheck[];
  references: number[];
  /** The customer's clean photos in no part of a genuine set; `undefined` for an impostor set. */
  heldOut: readonly ProbedPhoto[] | undefined;
}

/** Adds a genuine set to the figures: its warning photo flagged or used, fewer references, the gate. */
function tallyGenuine(figures: WarningFigures, { own, extra, checks, references, heldOut }: JudgedSet): void {
  const byClear = figures.byClearPhotos[own.length]!;
  figures.genuine++;
  byClear.genuine++;
  if (hasCode(checks[own.length]!, 'different_person')) figures.genuineFlagged++;
  if (references.includes(own.length)) {
    figures.genuineUsed++;
    byClear.genuineUsed++;
  }
  const usable = checks.filter((c) => c.verdict !== 'rejected').length;
  if (references.length < Math.min(REFERENCES, usable)) figures.genuineFewer++;
  const set = [...own, extra];
  const mean = meanDescriptor(references.map((i) => set[i]!.facts.descriptor!));
  figures.gateCompared += heldOut!.length;
  figures.gatePassed += heldOut!.filter((p) => cosine(p.facts.descriptor!, mean) >= GATE_COSINE).length;
}

/** Adds an impostor set to the figures: its degraded photo of another person flagged, or used as a reference. */
function tallyImpostor(figures: WarningFigures, { own, extra, checks, references }: JudgedSet): void {
  const byClear = figures.byClearPhotos[own.length]!;
  const cell = (figures.byDegradation[extra.variant] ??= { impostors: 0, flagged: 0 });
  cell.impostors++;
  figures.impostors++;
  byClear.impostors++;
  if (hasCode(checks[own.length]!, 'different_person')) {
    cell.flagged++;
    figures.impostorsFlagged++;
  }
  if (!references.includes(own.length)) return;
  figures.impostorsUsed++;
  byClear.impostorsUsed++;
  if (hasCode(checks[own.length]!, 'mixed_people')) figures.impostorsUsedMixed++;
}

/**
 * Judges every set at `warning`: for each person with clean photos, sets of their first k clean photos
 * (k = 1..4, as far as they have) plus one degraded photo of every other person (impostor) and, for each of their
 * own degraded photos, the first k of their other clean photos plus it (genuine; their remaining clean photos are
 * held out for the gate). Degraded copies the detector found no face in are left out (they are rejected as
 * `no_face` anyway).
 */
export function warningFigures(probe: WarningProbe, warning: WarningThresholds): WarningFigures {
  const clean = probe.photos.filter((p) => p.variant === 'original' && p.facts.descriptor);
  const degraded = probe.photos.filter((p) => p.variant !== 'original' && p.facts.descriptor);
  const people = [...new Set(clean.map((p) => p.person))];
  const figures: WarningFigures = {
    warning,
    impostors: 0,
    impostorsFlagged: 0,
    impostorsUsed: 0,
    impostorsUsedMixed: 0,
    genuine: 0,
    genuineFlagged: 0,
    genuineUsed: 0,
    genuineFewer: 0,
    gatePassed: 0,
    gateCompared: 0,
    byClearPhotos: {},
    clean: 0,
    cleanFlagged: 0,
    byDegradation: {},
  };
  const thresholds = { ...IDENTITY_THRESHOLDS, warning };
  const judge = (own: readonly ProbedPhoto[], extra: ProbedPhoto, heldOut?: readonly ProbedPhoto[]) => {
    const checks = checkPhotoSet(
      [...own, extra].map((p) => p.facts),
      thresholds,
    );
    figures.byClearPhotos[own.length] ??= { impostors: 0, impostorsUsed: 0, genuine: 0, genuineUsed: 0 };
    figures.clean += own.length;
    figures.cleanFlagged += checks.slice(0, own.length).filter((c) => hasCode(c, 'different_person')).length;
    const judged = { own, extra, checks, references: bestReferences(checks, REFERENCES), heldOut };
    (heldOut ? tallyGenuine : tallyImpostor)(figures, judged);
  };
  for (const person of people) {
    const own = clean.filter((p) => p.person === person);
    for (let k = 1; k <= Math.min(4, own.length); k++) {
      for (const d of degraded.filter((p) => p.person !== person)) judge(own.slice(0, k), d);
      for (const d of degraded.filter((p) => p.person === person)) {
        const rest = own.filter((p) => p.file !== d.file).slice(0, k);
        const heldOut = own.filter((p) => p.file !== d.file && !rest.includes(p));
        if (rest.length === k) judge(rest, d, heldOut);
      }
    }
  }
  return figures;
}

const pct = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;

/** The figures as a Markdown table, one row per pair of thresholds under which a warning photo is someone else. */
export function warningTable(rows: readonly WarningFigures[]): string {
  const degradations = [...new Set(rows.flatMap((r) => Object.keys(r.byDegradation)))];
  const lines = [
    [
      'warning threshold',
      'impostors flagged',
      'impostors used as a reference',
      'genuine warning photos flagged',
      'clean genuine photos flagged',
      ...degradations.map((d) => `${d}: impostors flagged`),
    ],
    ['---', '---', '---', '---', '---', ...degradations.map(() => '---')],
    ...rows.map((r) => [
      r.warning.light < 0 && r.warning.detail < 0
        ? 'none (sit out, before)'
        : `light ${r.warning.light.toFixed(2)}, detail ${r.warning.detail.toFixed(2)}`,
      `${r.impostorsFlagged}/${r.impostors} (${pct(r.impostorsFlagged, r.impostors)})`,
      String(r.impostorsUsed),
      `${r.genuineFlagged}/${r.genuine} (${pct(r.genuineFlagged, r.genuine)})`,
      `${r.cleanFlagged}/${r.clean} (${pct(r.cleanFlagged, r.clean)})`,
      ...degradations.map((d) => {
        const c = r.byDegradation[d] ?? { impostors: 0, flagged: 0 };
        return `${c.flagged}/${c.impostors}`;
      }),
    ]),
  ];
  return lines.map((l) => `| ${l.join(' | ')} |`).join('\n');
}

/** How a row's reference thresholds read: "none (round 1)" when -1 verifies every photo not flagged. */
export function referenceLabel({ mean, each }: WarningThresholds['reference']): string {
  const parts = [
    ...(mean > -1 ? [`mean ≥ ${mean.toFixed(3)}`] : []),
    ...(each > -1 ? [`each ≥ ${each.toFixed(3)}`] : []),
  ];
  return parts.length ? parts.join(', ') : 'none (round 1)';
}

/**
 * The references the sets send, as a Markdown table, one row per reference rule: impostors used (all, the
 * `mixed_people` ones, with 1 and 2 clean photos), the customer's own warning photos used, the genuine sets sending
 * fewer references than they could, and the likeness gate against the references' mean.
 */
export function referenceTable(rows: readonly WarningFigures[]): string {
  const cell = (r: WarningFigures, k: number) =>
    r.byClearPhotos[k] ?? { impostors: 0, impostorsUsed: 0, genuine: 0, genuineUsed: 0 };
  const lines = [
    [
      'reference rule (warning photos)',
      'impostors used as a reference',
      'of which mixed_people',
      'with 1 clear photo',
      'with 2 clear photos',
      'genuine warning photos used as a reference',
      'with 1 clear photo',
      'with 2 clear photos',
      'genuine sets sending fewer references',
      'held-out genuine photos passing the gate',
    ],
    Array.from({ length: 10 }, () => '---'),
    ...rows.map((r) => [
      referenceLabel(r.warning.reference),
      `${r.impostorsUsed}/${r.impostors}`,
      String(r.impostorsUsedMixed),
      `${cell(r, 1).impostorsUsed}/${cell(r, 1).impostors}`,
      `${cell(r, 2).impostorsUsed}/${cell(r, 2).impostors}`,
      `${r.genuineUsed}/${r.genuine}`,
      `${cell(r, 1).genuineUsed}/${cell(r, 1).genuine}`,
      `${cell(r, 2).genuineUsed}/${cell(r, 2).genuine}`,
      `${r.genuineFewer}/${r.genuine}`,
      `${r.gatePassed}/${r.gateCompared} (${pct(r.gatePassed, r.gateCompared)})`,
    ]),
  ];
  return lines.map((l) => `| ${l.join(' | ')} |`).join('\n');
}
