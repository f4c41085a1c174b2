/**
 * Runs in a fresh process for `npm run bench` (test/bench/vision.ts): times the vision module's cold start, one
 * photo check cold (models not yet loaded) and then warm for every fixture, and the offline provider's render of one
 * headshot per background. Prints one JSON line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { normalizePhoto } from '../../functions/adapters/images';
import { renderLocalHeadshot } from '../../functions/adapters/image-providers/local';
import { analyzePhoto } from '../../functions/use-cases/check-photos';
import { visionInitMs } from '../../functions/adapters/support/vision-models/runtime';
import { BACKGROUNDS } from '../../functions/domain/styles';
import { checkPhotoSet } from '../../functions/domain/photo-checks';
import { FIXTURE_PHOTOS_DIR } from './http';

const photos = readdirSync(FIXTURE_PHOTOS_DIR)
  .filter((f) => /\.jpe?g$/i.test(f))
  .sort();
const time = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
};

const [coldMs, first] = await time(() => analyzePhoto(readFileSync(`${FIXTURE_PHOTOS_DIR}${photos[0]}`)));
const warm: number[] = [];
const facts = [first.facts];
for (const file of photos) {
  const [ms, analyzed] = await time(() => analyzePhoto(readFileSync(`${FIXTURE_PHOTOS_DIR}${file}`)));
  warm.push(ms);
  if (file !== photos[0]) facts.push(analyzed.facts);
}
checkPhotoSet(facts);
const reference = (await normalizePhoto(readFileSync(`${FIXTURE_PHOTOS_DIR}${photos[0]}`))).jpeg;
// The first render also analyses the reference (face and matte, cached afterwards): not a per-headshot cost.
await renderLocalHeadshot({
  prompt: '',
  references: [reference],
  style: 'professional',
  background: 'studio',
  slot: 0,
  generationId: 'bench',
});
const renders: number[] = [];
for (const [i, background] of BACKGROUNDS.entries()) {
  const [ms] = await time(() =>
    renderLocalHeadshot({
      prompt: '',
      references: [reference],
      style: 'professional',
      background,
      slot: i + 1,
      generationId: 'bench',
    }),
  );
  renders.push(ms);
}
console.log(JSON.stringify({ initMs: visionInitMs(), coldMs, warm, photos, renders }));
