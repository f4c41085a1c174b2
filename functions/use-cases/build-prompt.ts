import { recordStep, requireGeneration } from '../adapters/generations';
import { PROGRESS } from '../domain/generation-status';
import { buildPrompt } from '../domain/prompts';
import type { Background, Style } from '../domain/styles';

/** What BuildPrompt needs from the outside world: the generation (its outfit) and its progress. */
export interface BuildPromptPorts {
  requireGeneration: typeof requireGeneration;
  recordStep: typeof recordStep;
}

const adapters: BuildPromptPorts = { requireGeneration, recordStep };

/**
 * BuildPrompt (docs/architecture.md §4): the prompt of the set's look from the style and background and the
 * generation's outfit and a team's backdrop colour (domain/prompts.ts; both are read from the generation item, so
 * executions need no new input), and the generation moves to progress 45, stage `generating`: the image calls start next. Each slot's
 * CallProvider adds the slot's variation (domain/prompts.ts `slotPrompt`).
 *
 * @returns the look's prompt, shared by every slot's provider call
 * @throws {GenerationClosedError} when the generation was already compensated (nothing more is made)
 * @throws {GenerationNotFoundError} when it does not exist
 */
export async function buildGenerationPrompt(
  userId: string,
  generationId: string,
  choice: { style: Style; background: Background },
  ports: BuildPromptPorts = adapters,
): Promise<{ prompt: string }> {
  const generation = await ports.requireGeneration(userId, generationId);
  const prompt = buildPrompt({
    ...choice,
    ...(generation.outfit ? { outfit: generation.outfit } : {}),
    ...(generation.backgroundColour ? { backgroundColour: generation.backgroundColour } : {}),
  });
  await ports.recordStep(userId, generationId, { stage: 'generating', progress: PROGRESS.generating });
  return { prompt };
}
