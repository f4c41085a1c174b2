import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is infrastructure/local/support/paths.ts). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
