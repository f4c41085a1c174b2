/**
 * How hard the property-based (fuzz) tests push, for fast-check's `fc.assert(property, fuzzSettings())`.
 *
 * - By default (every `npm test`, CI included): {@link DEFAULT_RUNS} generated cases per property from the fixed seed
 *   {@link DEFAULT_SEED}, so a run is repeatable and a failure reproduces on any machine.
 * - `FUZZ=full`: {@link FULL_RUNS} cases per property from a fresh random seed each run (fast-check prints the seed
 *   and the shrunk counterexample of a failure; pass it back with `FUZZ_SEED=<seed>`). Run it before a release or
 *   after changing a route's contract: `FUZZ=full npm run test:integration -- adversarial`.
 *
 * Full strength (~4,200 requests through the gateway) cost minutes on every run, for cases the default set covers
 * with the same generators (docs/testing.md, "Tiers and timings").
 */
export const FULL_RUNS = 200;
/** Cases per property by default: every route still reaches each answer its spec lists (`reaches`) at this seed. */
export const DEFAULT_RUNS = 40;
/** The default run's seed: any fixed value works; this one is not special. */
export const DEFAULT_SEED = 20_261_129;

/** fast-check parameters `{ numRuns, seed? }` for the current environment (`FUZZ`, `FUZZ_SEED`). */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): { numRuns: number; seed?: number } {
  const full = env.FUZZ === 'full';
  const seedText = env.FUZZ_SEED;
  const seed = seedText !== undefined && seedText !== '' ? Number(seedText) : full ? undefined : DEFAULT_SEED;
  if (seed !== undefined && !Number.isInteger(seed))
    throw new Error(`FUZZ_SEED must be an integer, got ${seedText}`);
  return { numRuns: full ? FULL_RUNS : DEFAULT_RUNS, ...(seed === undefined ? {} : { seed }) };
}
