import { buildGenerationPrompt } from '../use-cases/build-prompt';
import { buildPromptInput } from './inputs/build-prompt';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task BuildPrompt (function `generation-build-prompt`): the edit prompt from the style and background;
 * progress 45, stage `generating` (use-cases/build-prompt.ts).
 *
 * Input `{ generationId, userId, style, background }` → output `{ prompt }`.
 *
 * @throws {GenerationClosedError} when the generation was already compensated
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, style, background } = buildPromptInput.parse(event);
  return buildGenerationPrompt(userId, generationId, { style, background });
}, workflowKeys);
