import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LegalEntity } from '../../functions/domain/legal-entity';
import { prerenderedLegalProblem } from './legal-entity';
import { SynthRefusal } from './refusal';

/** A synth of real code that would deploy a broken app: the built SPA or the sharp layer is missing. */
export class IncompleteBuildError extends SynthRefusal {
  override readonly name = 'IncompleteBuildError';
}

/**
 * Refuses to synthesize real function code without what it needs at run time: the built SPA (`npm run build` →
 * `siteDir/index.html`) and, when a deployed function declares the `sharp-layer` asset, the sharp layer for
 * linux-arm64 (`npm run build:layers` → `nativeLayerDir/nodejs/node_modules/{sharp,@img/sharp-linux-arm64}`); on
 * production, legal pages prerendered with the context's company and support address (`prerenderedLegalProblem`).
 * Checked before anything is bundled, so the error comes at once.
 *
 * @throws {IncompleteBuildError} naming every missing part and the command that builds it.
 */
export function assertDeployable(input: {
  siteDir: string;
  nativeLayerDir: string;
  needsLayer: readonly string[];
  needsSite: boolean;
  /** The company and support address the built legal pages must have been prerendered with (production only). */
  legal?: { legalEntity?: LegalEntity; supportEmail: string };
}): void {
  const problems: string[] = [];
  if (input.needsSite && !existsSync(join(input.siteDir, 'index.html'))) {
    problems.push(`run \`npm run build\` (the built site ${input.siteDir}/index.html is missing)`);
  } else if (input.needsSite && input.legal) {
    const problem = prerenderedLegalProblem(input.siteDir, input.legal);
    if (problem) problems.push(problem);
  }
  const modules = join(input.nativeLayerDir, 'nodejs', 'node_modules');
  const layerComplete = ['sharp', join('@img', 'sharp-linux-arm64')].every((pkg) =>
    existsSync(join(modules, pkg, 'package.json')),
  );
  if (input.needsLayer.length > 0 && !layerComplete) {
    problems.push(
      `run \`npm run build:layers\` (the sharp layer for linux-arm64 that ${input.needsLayer.length} functions ` +
        `need is missing from ${modules})`,
    );
  }
  if (problems.length > 0) {
    throw new IncompleteBuildError(
      `Build first: ${problems.join(', then ')}; see docs/deploy.md ` +
        '(template-only checks may use -c stubFunctionCode=true)',
    );
  }
}
