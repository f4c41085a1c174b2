/**
 * Runs the face models for the likeness gate's retouching evaluation (test/bench/likeness-retouch.ts,
 * docs/decisions/026-likeness-under-retouching.md) and records their answers in
 * test/fixtures/face-model/likeness-retouch.json, which the report and the unit test replay: for every photo of the
 * evaluation set (test/bench/identity-set.ts), the descriptor of the photo as an upload is measured (the references'
 * side: normalized, ≤ 1024 px) and of its headshot square changed by each retouch ({@link RETOUCHES}, at the gate's
 * 512 px). With a directory in RETOUCH_SAMPLES it also writes every changed square there as a JPEG, to look at.
 *
 * Run: `npm run eval:likeness-retouch` (this, then the report); several minutes of CPU.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { encodeDescriptor } from '../../functions/domain/likeness';
import { normalizedPixels } from '../../functions/adapters/images';
import { analyzeFaces, personMatte } from '../../functions/adapters/support/vision-models/faces';
import { modelVersions } from '../helpers/face-model-recording';
import { evaluationPhotos } from './identity-set';
import { RETOUCH_RECORDING, type RetouchRecording, type RecordedPhoto } from './likeness-retouch';
import { headshotCrop, retouch, RETOUCHES } from './likeness-retouch-transforms';

const samples = process.env.RETOUCH_SAMPLES;
if (samples) mkdirSync(samples, { recursive: true });

const photos: RecordedPhoto[] = [];
for (const photo of evaluationPhotos()) {
  const pixels = await normalizedPixels(readFileSync(photo.path));
  const face = (await analyzeFaces(pixels)).faces[0];
  const recorded: RecordedPhoto = { file: photo.file, person: photo.person, retouched: {} };
  photos.push(recorded);
  if (!face) continue;
  recorded.descriptor = encodeDescriptor(face.descriptor);
  const square = await headshotCrop(pixels, face.box);
  let matte: Promise<Buffer> | undefined;
  const context = { face: square.face, matte: () => (matte ??= personMatte(square.image)) };
  for (const how of RETOUCHES) {
    const changed = await retouch(square.image, how, context);
    const found = (await analyzeFaces(changed)).faces[0];
    recorded.retouched[how] = found ? encodeDescriptor(found.descriptor) : null;
    if (samples)
      await sharp(changed.data, { raw: { width: changed.width, height: changed.height, channels: 3 } })
        .jpeg({ quality: 85 })
        .toFile(join(samples, `${photo.file.replace(/\.\w+$/, '')}-${how}.jpg`));
  }
  console.error(`${photo.file}: ${Object.values(recorded.retouched).filter(Boolean).length} faces`);
}
writeFileSync(
  RETOUCH_RECORDING,
  `${JSON.stringify({ models: modelVersions(), photos } satisfies RetouchRecording, null, 2)}\n`,
);
console.error(`recorded ${photos.length} photos in ${RETOUCH_RECORDING}`);
