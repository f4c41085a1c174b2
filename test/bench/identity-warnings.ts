/**
 * The identity check of warning photos (docs/decisions/023-verified-references.md): photos whose descriptor is
 * unreliable (`too_bright`, `too_dark`, `blurry`, `face_too_small`) sat out the identity check, so an overexposed
 * photo of someone else became a reference. This evaluation adds such photos to the labelled evaluation set
 * (test/bench/identity-set.ts), each degraded copy made from a fixture deterministically with sharp (no committed
 * binaries), and judges sets of a customer's clean photos plus one degraded photo — of another person (impostor) or
 * of the customer (genuine, its source photo left out of the set) — with the product's own rules
 * (functions/domain/photo-checks.ts `checkPhotoSet`, `bestReferences`) at a given warning threshold. The arithmetic
 * is pure, so its unit test (test/unit/identity-warnings.test.ts) runs on hand-made facts; the models run once in
 * test/bench/identity-warnings-probe.ts.
 */
import sharp from 'sharp';
import {
  bestReferences,
  checkPhotoSet,
  IDENTITY_THRESHOLDS,
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

/** The figures at one pair of warning thresholds. */
export interface WarningFigures {
  /** The warning photos' thresholds (cosine against the agreeing photos' mean); -1: they sit out (before). */
  warning: WarningThresholds;
  /** Sets with a degraded photo of another person; how many of those photos were flagged `different_person`. */
  impostors: number;
  impostorsFlagged: number;
  /** How many of them were among the 3 references chosen (`bestReferences`). */
  impostorsUsed: number;
  /** Sets with a degraded photo of the customer; how many of those photos were flagged. */
  genuine: number;
  genuineFlagged: number;
  /** The customer's clean photos in all the sets, and how many of them were flagged. */
  clean: number;
  cleanFlagged: number;
  /** Per degradation: impostor photos flagged / judged. */
  byDegradation: Record<string, { impostors: number; flagged: number }>;
}

const REFERENCES = 3;

/**
 * Judges every set at `warningFlag`: for each person with clean photos, sets of their first k clean photos
 * (k = 1..4, as far as they have) plus one degraded photo of every other person (impostor) and, for each of their
 * own degraded photos, the first k of their other clean photos plus it (genuine). Degraded copies the detector
 * found no face in are left out (they are rejected as `no_face` anyway).
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
    genuine: 0,
    genuineFlagged: 0,
    clean: 0,
    cleanFlagged: 0,
    byDegradation: {},
  };
  const thresholds = { ...IDENTITY_THRESHOLDS, warning };
  const judge = (own: readonly ProbedPhoto[], extra: ProbedPhoto, impostor: boolean) => {
    const checks = checkPhotoSet(
      [...own, extra].map((p) => p.facts),
      thresholds,
    );
    const flagged = checks[own.length]!.reasons.some((r) => r.code === 'different_person');
    figures.clean += own.length;
    figures.cleanFlagged += checks
      .slice(0, own.length)
      .filter((c) => c.reasons.some((r) => r.code === 'different_person')).length;
    if (!impostor) {
      figures.genuine++;
      if (flagged) figures.genuineFlagged++;
      return;
    }
    const cell = (figures.byDegradation[extra.variant] ??= { impostors: 0, flagged: 0 });
    cell.impostors++;
    figures.impostors++;
    if (flagged) {
      cell.flagged++;
      figures.impostorsFlagged++;
    }
    if (bestReferences(checks, REFERENCES).includes(own.length)) figures.impostorsUsed++;
  };
  for (const person of people) {
    const own = clean.filter((p) => p.person === person);
    for (let k = 1; k <= Math.min(4, own.length); k++) {
      for (const d of degraded.filter((p) => p.person !== person)) judge(own.slice(0, k), d, true);
      for (const d of degraded.filter((p) => p.person === person)) {
        const rest = own.filter((p) => p.file !== d.file).slice(0, k);
        if (rest.length === k) judge(rest, d, false);
      }
    }
  }
  return figures;
}

const pct = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;

/** The figures as a Markdown table, one row per threshold. */
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
