/**
 * The likeness gate under retouching (docs/decisions/026-likeness-under-retouching.md, issue 36 item 6): the gate was
 * calibrated on photos (docs/decisions/002-identity-model.md); an edit or the image model smooths skin, relights,
 * grades colour, replaces the background and upscales. This evaluation changes every photo of the evaluation set
 * (test/bench/identity-set.ts) that way (test/bench/likeness-retouch-transforms.ts) and judges each changed face
 * the way FinishHeadshot does (functions/adapters/vision/likeness.ts: `likenessOf` the face's descriptor against the
 * mean of the customer's reference descriptors, passing at LIKENESS_THRESHOLD):
 * - genuine: a person's changed photo against windows of 3 of that person's OTHER photos (all of them when fewer);
 * - impostor: a person's changed photo against windows of 3 of each other person's photos.
 * The models run once (test/bench/likeness-retouch-probe.ts) and their descriptors are recorded in
 * {@link RETOUCH_RECORDING}; this arithmetic replays them, in the report (`npm run eval:likeness-retouch`) and in
 * the unit test that holds the acceptance on CI (test/unit/likeness-retouch.test.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  cosine,
  decodeDescriptor,
  DEFAULT_LIKENESS_THRESHOLD,
  likenessFromCosine,
  meanDescriptor,
} from '../../functions/domain/likeness';
import type { Comparison } from './identity-metrics';
import { RETOUCHES, type Retouch } from './likeness-retouch-transforms';

/** Where the probe records the models' answers (committed: the unit test replays them). */
export const RETOUCH_RECORDING = fileURLToPath(
  new URL('../fixtures/face-model/likeness-retouch.json', import.meta.url),
);

/** One photo's recorded descriptors (base64 float32, `encodeDescriptor`); `null`: no face found in that copy. */
export interface RecordedPhoto {
  file: string;
  person: string;
  /** The photo as an upload is measured (a reference's descriptor); absent when no face was found. */
  descriptor?: string;
  /** Its headshot square changed by each retouch. */
  retouched: Partial<Record<Retouch, string | null>>;
}

/** The recording: the models' packages (`name@version`, as the face-model recording) and every photo. */
export interface RetouchRecording {
  models: string;
  photos: RecordedPhoto[];
}

/** Reads {@link RETOUCH_RECORDING}. */
export function loadRetouchRecording(path = RETOUCH_RECORDING): RetouchRecording {
  return JSON.parse(readFileSync(path, 'utf8')) as RetouchRecording;
}

/** What is judged: the photo itself (`photo`, the calibration's case) or one of its retouched squares. */
export type Probe = 'photo' | Retouch;
/** Every probe, the photo first. */
export const PROBES: readonly Probe[] = ['photo', ...RETOUCHES];

/** A comparison of the gate, with the likeness the product computes (0-100) beside the cosine. */
export interface GateComparison extends Comparison {
  likeness: number;
  probe: Probe;
}

interface Reference {
  file: string;
  descriptor: number[];
}

/** How a face's similarity to a customer's references is computed: a cosine-like score, -1..1. */
export type Aggregation = (face: readonly number[], references: readonly (readonly number[])[]) => number;

/**
 * The ways to score a face against several references that the evaluation compares: the product's (the cosine to
 * the unit mean of the references' descriptors, functions/adapters/vision/likeness.ts), the mean of the cosines to
 * each reference, and the cosine to the nearest reference.
 */
export const AGGREGATIONS = {
  'mean descriptor (product)': (face, refs) => cosine(face, meanDescriptor(refs)),
  'mean of cosines': (face, refs) => refs.reduce((sum, r) => sum + cosine(face, r), 0) / refs.length,
  'nearest reference': (face, refs) => Math.max(...refs.map((r) => cosine(face, r))),
} satisfies Record<string, Aggregation>;
/** The product's way, {@link AGGREGATIONS}' first. */
const PRODUCT_AGGREGATION: Aggregation = AGGREGATIONS['mean descriptor (product)'];

/** Windows of `size` consecutive references (wrapping); one window of all of them when there are not more. */
function windows(references: readonly Reference[], size: number): Reference[][] {
  if (references.length <= size) return references.length > 0 ? [[...references]] : [];
  return references.map((_, start) =>
    Array.from({ length: size }, (__, k) => references[(start + k) % references.length]!),
  );
}

/**
 * Every gate comparison of the recording for one probe (see the module comment for which references each face is
 * compared with). A copy in which no face was found is left out (the product refuses it as "no face", and counts it
 * in {@link missingFaces}). The likeness is the product's (`likenessFromCosine`) of the aggregation's score.
 */
export function gateComparisons(
  recording: RetouchRecording,
  probe: Probe,
  aggregate: Aggregation = PRODUCT_AGGREGATION,
  references = 3,
): GateComparison[] {
  const byPerson = new Map<string, Reference[]>();
  for (const photo of recording.photos)
    if (photo.descriptor)
      byPerson.set(photo.person, [
        ...(byPerson.get(photo.person) ?? []),
        { file: photo.file, descriptor: decodeDescriptor(photo.descriptor) },
      ]);
  const customers = [...byPerson].flatMap(([person, refs]) =>
    windows(refs, references).map((w) => ({ person, w })),
  );
  const out: GateComparison[] = [];
  for (const photo of recording.photos) {
    const encoded = probe === 'photo' ? photo.descriptor : photo.retouched[probe];
    if (!encoded) continue;
    const face = decodeDescriptor(encoded);
    const own = (byPerson.get(photo.person) ?? []).filter((r) => r.file !== photo.file);
    const judged = [
      ...windows(own, references).map((w) => ({ w, genuine: true })),
      ...customers.filter((c) => c.person !== photo.person).map(({ w }) => ({ w, genuine: false })),
    ];
    for (const { w, genuine } of judged) {
      const similarity = aggregate(
        face,
        w.map((r) => r.descriptor),
      );
      out.push({
        label: `${photo.file}:${probe} ~ [${w.map((r) => r.file).join(',')}]`,
        similarity,
        likeness: likenessFromCosine(similarity),
        genuine,
        probe,
      });
    }
  }
  return out;
}

/** The copies of `probe` in which the models found no face (the product refuses those: "no face"). */
export function missingFaces(recording: RetouchRecording, probe: Probe): string[] {
  return recording.photos
    .filter((p) => p.descriptor && (probe === 'photo' ? false : !p.retouched[probe]))
    .map((p) => p.file);
}

/** How the gate decides at one threshold on a list of comparisons. */
export interface GateOutcome {
  genuine: number;
  genuinePassed: number;
  impostor: number;
  impostorPassed: number;
}

/**
 * The gate's outcome: a comparison passes when its likeness is at least `threshold` (0-100, the product's
 * LIKENESS_THRESHOLD, default {@link DEFAULT_LIKENESS_THRESHOLD}).
 */
export function gateOutcome(
  comparisons: readonly GateComparison[],
  threshold = DEFAULT_LIKENESS_THRESHOLD,
): GateOutcome {
  const genuine = comparisons.filter((c) => c.genuine);
  const impostor = comparisons.filter((c) => !c.genuine);
  return {
    genuine: genuine.length,
    genuinePassed: genuine.filter((c) => c.likeness >= threshold).length,
    impostor: impostor.length,
    impostorPassed: impostor.filter((c) => c.likeness >= threshold).length,
  };
}
