/**
 * The identity evaluation set (docs/decisions/002-identity-model.md): test/fixtures/faces (7 people, 33 photos,
 * labelled in its identities.json) plus the distinct photographs of test/fixtures/photos (obama.jpg, obama2.jpg,
 * obama3.jpg and biden.jpg). The derived copies there — obama-720p.jpg (obama.jpg letterboxed), obama-rotated.jpg,
 * obama-12mp.jpg and obama2.heic — repeat another photo's pixels: as pairs they would score ~1 and flatter every
 * model, so they are left out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One photo of the set. */
export interface EvaluationPhoto {
  file: string;
  person: string;
  path: string;
}

const FACES_DIR = fileURLToPath(new URL('../fixtures/faces/', import.meta.url));
const PHOTOS_DIR = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));

/** Distinct photographs of test/fixtures/photos, by person. */
const PHOTOS: Record<string, string[]> = {
  obama: ['obama.jpg', 'obama2.jpg', 'obama3.jpg'],
  biden: ['biden.jpg'],
};

/** Every photo of the set, grouped by person in the labels' order. */
export function evaluationPhotos(): EvaluationPhoto[] {
  const labels = JSON.parse(readFileSync(`${FACES_DIR}identities.json`, 'utf8')) as Record<string, string[]>;
  return [
    ...Object.entries(labels).flatMap(([person, files]) =>
      files.map((file) => ({ file, person, path: `${FACES_DIR}${file}` })),
    ),
    ...Object.entries(PHOTOS).flatMap(([person, files]) =>
      files.map((file) => ({ file, person, path: `${PHOTOS_DIR}${file}` })),
    ),
  ];
}

/** The identity models the bench compares (test/bench/identity-probe.ts says what each is). */
export const IDENTITY_MODELS = [
  'faceres',
  'faceres-deep',
  'mobilefacenet',
  'faceapi-resnet128',
  'faceapi-resnet128-loose',
] as const;
export type IdentityModel = (typeof IDENTITY_MODELS)[number];

/** What one probe run prints. */
export interface IdentityProbe {
  model: IdentityModel;
  /** Loading the models (detector, mesh and the descriptor model), ms. */
  initMs: number;
  photos: {
    file: string;
    person: string;
    /** The largest face's descriptor (absent when no face was found). */
    descriptor?: number[];
    /** Detection + mesh + descriptor for the photo, ms (decode excluded). */
    totalMs: number;
    /** The descriptor alone (its crop included), ms. */
    descriptorMs: number;
  }[];
}
