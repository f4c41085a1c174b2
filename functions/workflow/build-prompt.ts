import { buildGenerationPrompt } from '../use-cases/build-prompt';
import { buildPromptInput } from './inputs/build-prompt';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task BuildPrompt (function `generation-build-prompt`): the set's look from the style, the background and
 * the generation's outfit (each slot's CallProvider adds its variation); progress 45, stage `generating`
 * (use-cases/build-prompt.ts).
 *
 * Input `{ generationId, userId, style, background }` → output `{ prompt }`.
 *
 * @throws {GenerationClosedError} when the generation was already compensated
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, style, background } = buildPromptInput.parse(event);
  return buildGenerationPrompt(userId, generationId, { style, background });
}, workflowKeys);
