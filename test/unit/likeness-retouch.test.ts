import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIKENESS_THRESHOLD,
  encodeDescriptor,
  likenessFromCosine,
  normalize,
} from '../../functions/domain/likeness';
import { modelVersions } from '../helpers/face-model-recording';
import { evaluationPhotos } from '../bench/identity-set';
import {
  AGGREGATIONS,
  gateComparisons,
  gateOutcome,
  loadRetouchRecording,
  missingFaces,
  PROBES,
  type GateComparison,
  type RecordedPhoto,
  type RetouchRecording,
} from '../bench/likeness-retouch';
import { HEADSHOT_CROP_SIDE, headshotCrop, retouch, RETOUCHES } from '../bench/likeness-retouch-transforms';

/**
 * The likeness gate under retouching (docs/decisions/026-likeness-under-retouching.md, issue 36's acceptance: at
 * least 95 % of genuine retouched photos pass, no retouched impostor does). The face models' answers for every
 * retouched photo are recorded (test/bench/likeness-retouch-probe.ts, `npm run eval:likeness-retouch`); this replays
 * them through the product's decision (`likenessOf` against the mean of the references, at LIKENESS_THRESHOLD), so
 * CI holds the acceptance without running a model.
 */

const recording = loadRetouchRecording();
/** Retouches an edit or the model makes (`crop` is the unchanged square: the baseline, not a retouch). */
const RETOUCHED = RETOUCHES.filter((r) => r !== 'crop');

describe('the recording', () => {
  it('holds every photo of the evaluation set and every retouch, from the models installed now', () => {
    // A model upgrade or a new retouch makes it stale: run `npm run eval:likeness-retouch` and read the decision again.
    expect(recording.models).toBe(modelVersions());
    expect(recording.photos.map((p) => p.file)).toEqual(evaluationPhotos().map((p) => p.file));
    for (const photo of recording.photos)
      expect(Object.keys(photo.retouched).sort()).toEqual([...RETOUCHES].sort());
  });

  it('finds a face in every retouched copy (a copy without one would be refused as "no face")', () => {
    for (const probe of PROBES) expect(missingFaces(recording, probe), probe).toEqual([]);
  });
});

describe('the likeness gate at the default threshold', () => {
  const all = (probes: readonly (typeof PROBES)[number][]): GateComparison[] =>
    probes.flatMap((probe) => gateComparisons(recording, probe));

  it('passes at least 95 % of genuine retouched photos and no retouched impostor', () => {
    const outcome = gateOutcome(all(RETOUCHED), DEFAULT_LIKENESS_THRESHOLD);
    expect(outcome.genuine).toBeGreaterThan(1000);
    expect(outcome.impostor).toBeGreaterThan(5000);
    expect(outcome.genuinePassed / outcome.genuine).toBeGreaterThanOrEqual(0.95);
    expect(outcome.impostorPassed).toBe(0);
  });

  it('passes every genuine photo as it is and no impostor (the calibration of decision 002 still holds)', () => {
    const outcome = gateOutcome(all(['photo']), DEFAULT_LIKENESS_THRESHOLD);
    expect(outcome.genuinePassed).toBe(outcome.genuine);
    expect(outcome.impostorPassed).toBe(0);
  });

  it('holds for each retouch on its own: at least 95 % genuine passes, no impostor', () => {
    for (const probe of RETOUCHED) {
      const outcome = gateOutcome(gateComparisons(recording, probe), DEFAULT_LIKENESS_THRESHOLD);
      expect(outcome.genuinePassed / outcome.genuine, probe).toBeGreaterThanOrEqual(0.95);
      expect(outcome.impostorPassed, probe).toBe(0);
    }
  });
});

describe('gateComparisons', () => {
  // Two people on two axes (cosine 0 apart); a's photos slightly apart from each other. Cheap hand-made descriptors.
  const d = (x: number, y: number) => encodeDescriptor(normalize([x, y, 0.1]));
  const photo = (
    file: string,
    person: string,
    descriptor: string,
    retouched?: string | null,
  ): RecordedPhoto => ({
    file,
    person,
    descriptor,
    retouched: retouched === undefined ? {} : { smooth: retouched },
  });
  const tiny: RetouchRecording = {
    models: 'test',
    photos: [
      photo('a1', 'a', d(1, 0), d(1, 0.05)),
      photo('a2', 'a', d(1, 0.1), null),
      photo('a3', 'a', d(1, -0.1)),
      photo('a4', 'a', d(1, 0)),
      photo('a5', 'a', d(1, 0.05)),
      photo('b1', 'b', d(0, 1), d(0.1, 1)),
      photo('b2', 'b', d(0, 1)),
    ],
  };

  it("compares a retouched face with windows of 3 of its person's other photos and every other person's windows", () => {
    const comparisons = gateComparisons(tiny, 'smooth');
    const a1 = comparisons.filter((c) => c.label.startsWith('a1:smooth'));
    // a's four other photos make four windows of 3; b's two photos one window of both.
    expect(a1.filter((c) => c.genuine)).toHaveLength(4);
    expect(
      a1.filter((c) => c.genuine).every((c) => !c.label.includes('[a1') && !c.label.includes(',a1')),
    ).toBe(true);
    expect(a1.filter((c) => !c.genuine).map((c) => c.label)).toEqual(['a1:smooth ~ [b1,b2]']);
    // b1's one other photo is its reference; a's five photos make five windows, all impostor comparisons.
    const b1 = comparisons.filter((c) => c.label.startsWith('b1:smooth'));
    expect(b1.filter((c) => c.genuine).map((c) => c.label)).toEqual(['b1:smooth ~ [b2]']);
    expect(b1.filter((c) => !c.genuine)).toHaveLength(5);
  });

  it("scores with the product's likeness and leaves out a copy without a face", () => {
    const comparisons = gateComparisons(tiny, 'smooth');
    expect(comparisons.some((c) => c.label.startsWith('a2:'))).toBe(false);
    expect(missingFaces(tiny, 'smooth')).toEqual(['a2', 'a3', 'a4', 'a5', 'b2']);
    for (const c of comparisons) expect(c.likeness).toBe(likenessFromCosine(c.similarity));
    const outcome = gateOutcome(comparisons);
    expect(outcome).toEqual({ genuine: 5, genuinePassed: 5, impostor: 6, impostorPassed: 0 });
  });

  it("scores with the aggregation it is given: the product's mean descriptor by default", () => {
    const product = gateComparisons(tiny, 'smooth');
    expect(gateComparisons(tiny, 'smooth', AGGREGATIONS['mean descriptor (product)'])).toEqual(product);
    const nearest = gateComparisons(tiny, 'smooth', AGGREGATIONS['nearest reference']);
    const meanOfCosines = gateComparisons(tiny, 'smooth', AGGREGATIONS['mean of cosines']);
    nearest.forEach((c, i) => expect(c.similarity).toBeGreaterThanOrEqual(meanOfCosines[i]!.similarity));
    expect(nearest.map((c) => c.label)).toEqual(product.map((c) => c.label));
  });
});

describe('the retouches', () => {
  // A 512 px square, mid-grey with a lighter "face" box, and a matte that keeps only that box.
  const side = HEADSHOT_CROP_SIDE;
  const face = { x: 156, y: 106, width: 200, height: 250 };
  const inFace = (i: number) => {
    const x = i % side;
    const y = Math.floor(i / side);
    return x >= face.x && x < face.x + face.width && y >= face.y && y < face.y + face.height;
  };
  const square = {
    width: side,
    height: side,
    data: Buffer.from(
      Array.from({ length: side * side * 3 }, (_, j) => (inFace(Math.floor(j / 3)) ? 180 : 110)),
    ),
  };
  const matte = Buffer.from(Array.from({ length: side * side }, (_, i) => (inFace(i) ? 255 : 0)));
  const context = { face, matte: () => Promise.resolve(matte) };
  const pixel = (image: { data: Buffer }, x: number, y: number) => [
    ...image.data.subarray((y * side + x) * 3, (y * side + x) * 3 + 3),
  ];

  it('keep the square its size and leave `crop` unchanged', async () => {
    for (const how of RETOUCHES) {
      const out = await retouch(square, how, context);
      expect([out.width, out.height, out.data.length], how).toEqual([side, side, side * side * 3]);
    }
    expect((await retouch(square, 'crop', context)).data.equals(square.data)).toBe(true);
  });

  it('light one side more than the other, and put the person on a new background or on white', async () => {
    const lit = await retouch(square, 'relight', context);
    expect(pixel(lit, 5, 5)[0]!).toBeGreaterThan(pixel(lit, side - 5, 5)[0]!);
    expect(pixel(await retouch(square, 'background', context), 5, 5)).toEqual([0x46, 0x56, 0x6e]);
    const cut = await retouch(square, 'transparent', context);
    expect(pixel(cut, 5, 5)).toEqual([255, 255, 255]);
    expect(pixel(cut, face.x + 100, face.y + 100)).toEqual([180, 180, 180]);
  });

  it('frame a head-and-shoulders square around the face, the face mapped into it', async () => {
    const photo = { width: 1000, height: 800, data: Buffer.alloc(1000 * 800 * 3, 128) };
    const { image, face: mapped } = await headshotCrop(photo, { x: 400, y: 200, width: 150, height: 200 });
    expect([image.width, image.height]).toEqual([side, side]);
    // 2.6 face heights (520 px) shown at 512 px: the face keeps its proportions, inside the square.
    expect(mapped.height / mapped.width).toBeCloseTo(200 / 150, 5);
    expect(mapped.x).toBeGreaterThan(0);
    expect(mapped.y + mapped.height).toBeLessThan(side);
  });
});
