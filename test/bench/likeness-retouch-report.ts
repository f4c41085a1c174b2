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
