/**
 * Imported first by `run.ts`: settles the process environment before any handler module (and its Powertools
 * logger) is evaluated, so the handlers running in this process log only warnings and errors and the image provider
 * is the offline `local` one whatever the caller's shell says (a set `OPENAI_API_KEY` would otherwise switch it to
 * `openai`).
 */
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
process.env.IMAGE_PROVIDER = 'local';

export {};
