import { recordStep } from '../adapters/generations';
import { PROGRESS } from '../domain/generation-status';
import { buildPrompt } from '../domain/prompts';
import { buildPromptInput } from './inputs/build-prompt';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task BuildPrompt (function `generation-build-prompt`): the edit prompt from the style and background
 * (domain/prompts.ts). Progress 45, stage `generating`: the image calls start next.
 *
 * Input `{ generationId, userId, style, background }` → output `{ prompt }`.
 *
 * @throws {GenerationClosedError} when the generation was already compensated
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, style, background } = buildPromptInput.parse(event);
  const prompt = buildPrompt(style, background);
  await recordStep(userId, generationId, { stage: 'generating', progress: PROGRESS.generating });
  return { prompt };
}, workflowKeys);
