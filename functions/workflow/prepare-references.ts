import { prepareReferences } from '../use-cases/prepare-references';
import { prepareReferencesInput } from './inputs/prepare-references';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task PrepareReferences (function `generation-prepare-references`): judges the generation's uploads by the
 * photo checks' rules, never trusting the browser's, and stores the 3 best as head-and-shoulders reference crops
 * with the customer's face descriptor (use-cases/prepare-references.ts). Progress 10 → 30, stage `preparing`,
 * status `running`.
 *
 * Input `{ generationId, userId, referenceKeys }` → output `{ references: string[] (crop keys, 1-3, best first),
 * usable: number, rejected: number }`.
 *
 * @throws {NoUsablePhotosError} when every photo is rejected; its message is shown to the user as is
 * @throws {GenerationClosedError} when the generation was already compensated
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, referenceKeys } = prepareReferencesInput.parse(event);
  return prepareReferences(userId, generationId, referenceKeys);
}, workflowKeys);
