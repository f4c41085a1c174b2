/**
 * Runs in a fresh process for the identity check of warning photos (test/bench/identity-warnings.ts,
 * docs/decisions/023-verified-references.md): every photo of the evaluation set (test/bench/identity-set.ts) and
 * its degraded copies ({@link DEGRADATIONS}), each checked as an upload is (use-cases/check-photos.ts
 * `analyzePhoto`: decode, faces, measurements, descriptor). Prints one JSON line: {@link WarningProbe}. With a path
 * in argv[2] it also writes the line there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { analyzePhoto } from '../../functions/use-cases/check-photos';
import { evaluationPhotos } from './identity-set';
import { DEGRADATIONS, degrade, type WarningProbe } from './identity-warnings';

const photos: WarningProbe['photos'] = [];
for (const photo of evaluationPhotos()) {
  const bytes = readFileSync(photo.path);
  photos.push({
    file: photo.file,
    person: photo.person,
    variant: 'original',
    facts: (await analyzePhoto(bytes)).facts,
  });
  for (const variant of DEGRADATIONS) {
    const degraded = await degrade(bytes, variant);
    photos.push({
      file: photo.file,
      person: photo.person,
      variant,
      facts: (await analyzePhoto(degraded)).facts,
    });
  }
}
const line = JSON.stringify({ photos } satisfies WarningProbe);
if (process.argv[2]) writeFileSync(process.argv[2], line);
console.log(line);
