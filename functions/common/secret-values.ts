/*
 * What the settings groups (functions/config/*.ts) and functions/common/secrets.ts share about secrets, in a module
 * of its own so that loading secrets loads (and parses) no settings group: handlers that read no configuration
 * (`GET /api/health`, `GET /api/packs`) stay small.
 */

/** The value a freshly deployed secret holds until an operator puts the real key (README "Deploy to AWS"). */
export const SECRET_PLACEHOLDER = 'REPLACE_ME';

let generation = 0;

/** How many times a secret has arrived in `process.env` in this execution environment (0 at the cold start). */
export function secretsGeneration(): number {
  return generation;
}

/**
 * Records that common/secrets.ts has just put a secret into `process.env`: the next `load()` of each settings group
 * (config/settings.ts) parses the environment again. Objects built from the old configuration compare it by identity to rebuild themselves
 * (image-providers/index.ts).
 */
export function secretsChanged(): void {
  generation += 1;
}
