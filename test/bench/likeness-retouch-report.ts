/**
 * Prints the likeness gate's retouching evaluation (test/bench/likeness-retouch.ts) from the recording: per probe
 * (the photo itself, each retouch), both cosine distributions and the gate's outcome at LIKENESS_THRESHOLD, then the
 * outcome over every retouched face at thresholds around it. The tables of
 * docs/decisions/026-likeness-under-retouching.md. `npm run eval:likeness-retouch` runs the probe first.
 */
import { DEFAULT_LIKENESS_THRESHOLD } from '../../functions/domain/likeness';
import { distribution } from './identity-metrics';
import * as evaluation from './likeness-retouch';

const { gateComparisons, gateOutcome, missingFaces, PROBES } = evaluation;
const recording = evaluation.loadRetouchRecording();
const pct = (part: number, whole: number) =>
  `${part}/${whole} (${((100 * part) / Math.max(1, whole)).toFixed(1)} %)`;
const f3 = (value: number) => value.toFixed(3);
const five = (values: number[]) => {
  const d = distribution(values);
  return `${f3(d.min)} / ${f3(d.p5)} / ${f3(d.median)} / ${f3(d.max)}`;
};

const rows: string[] = [
  `| probe | no face | genuine cosine min / p5 / median / max | impostor cosine min / p5 / median / max | genuine pass at ${DEFAULT_LIKENESS_THRESHOLD} | impostors accepted |`,
  '| --- | --- | --- | --- | --- | --- |',
];
const retouched: evaluation.GateComparison[] = [];
for (const probe of PROBES) {
  const comparisons = gateComparisons(recording, probe);
  if (probe !== 'photo' && probe !== 'crop') retouched.push(...comparisons);
  const genuine = comparisons.filter((c) => c.genuine).map((c) => c.similarity);
  const impostor = comparisons.filter((c) => !c.genuine).map((c) => c.similarity);
  const outcome = gateOutcome(comparisons);
  rows.push(
    `| ${probe} | ${missingFaces(recording, probe).length} | ${five(genuine)} | ${five(impostor)} | ${pct(outcome.genuinePassed, outcome.genuine)} | ${pct(outcome.impostorPassed, outcome.impostor)} |`,
  );
}
console.log(`Models: ${recording.models}; ${recording.photos.length} photos\n`);
console.log(rows.join('\n'));

console.log('\nEvery retouched face (crop and photo left out), by threshold (likeness 0-100):\n');
console.log('| threshold | genuine pass | impostors accepted |\n| --- | --- | --- |');
for (let threshold = 35; threshold <= 70; threshold += 5) {
  const outcome = gateOutcome(retouched, threshold);
  console.log(
    `| ${threshold} | ${pct(outcome.genuinePassed, outcome.genuine)} | ${pct(outcome.impostorPassed, outcome.impostor)} |`,
  );
}
const worst = retouched
  .filter((c) => c.genuine)
  .sort((a, b) => a.similarity - b.similarity)
  .slice(0, 12);
console.log('\nLowest genuine retouched comparisons:');
for (const c of worst) console.log(`  ${f3(c.similarity)} (${c.likeness}) ${c.label}`);
const best = retouched
  .filter((c) => !c.genuine)
  .sort((a, b) => b.similarity - a.similarity)
  .slice(0, 8);
console.log('Highest impostor retouched comparisons:');
for (const c of best) console.log(`  ${f3(c.similarity)} (${c.likeness}) ${c.label}`);

/*
 * Other ways to score a face against the references, each at its own threshold set as the product's was (decision
 * 002): halfway between the highest impostor and the lowest genuine score on the photos as they are.
 */
console.log('\nAggregations, each at the middle of its gap on the photos as they are (cosine):\n');
console.log(
  '| aggregation | photos: genuine min / impostor max | threshold | retouched: genuine min / impostor max | retouched genuine refused | retouched impostors accepted |\n| --- | --- | --- | --- | --- | --- |',
);
const RETOUCHED_PROBES = evaluation.PROBES.filter((p) => p !== 'photo' && p !== 'crop');
for (const [name, aggregate] of Object.entries(evaluation.AGGREGATIONS)) {
  const photos = gateComparisons(recording, 'photo', aggregate);
  const changed = RETOUCHED_PROBES.flatMap((p) => gateComparisons(recording, p, aggregate));
  const lowest = (list: typeof photos) => Math.min(...list.filter((c) => c.genuine).map((c) => c.similarity));
  const highest = (list: typeof photos) =>
    Math.max(...list.filter((c) => !c.genuine).map((c) => c.similarity));
  const threshold = (lowest(photos) + highest(photos)) / 2;
  const genuine = changed.filter((c) => c.genuine);
  const impostor = changed.filter((c) => !c.genuine);
  console.log(
    `| ${name} | ${f3(lowest(photos))} / ${f3(highest(photos))} | ${f3(threshold)} | ${f3(lowest(changed))} / ${f3(highest(changed))} | ${pct(genuine.filter((c) => c.similarity < threshold).length, genuine.length)} | ${pct(impostor.filter((c) => c.similarity >= threshold).length, impostor.length)} |`,
  );
}
