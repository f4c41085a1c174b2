import { recordStep } from '../adapters/generations';
import { PROGRESS } from '../domain/generation-status';
import { buildPrompt } from '../domain/prompts';
import type { Background, Style } from '../domain/styles';

/** What BuildPrompt needs from the outside world: the generation's progress. */
export interface BuildPromptPorts {
  recordStep: typeof recordStep;
}

const adapters: BuildPromptPorts = { recordStep };

/**
 * BuildPrompt (docs/architecture.md §4): the edit prompt from the style and background (domain/prompts.ts), and the
 * generation moves to progress 45, stage `generating`: the image calls start next.
 *
 * @returns the prompt every slot's provider call uses
 * @throws {GenerationClosedError} when the generation was already compensated (nothing more is made)
 * @throws {GenerationNotFoundError} when it does not exist
 */
export async function buildGenerationPrompt(
  userId: string,
  generationId: string,
  choice: { style: Style; background: Background },
  ports: BuildPromptPorts = adapters,
): Promise<{ prompt: string }> {
  const prompt = buildPrompt(choice.style, choice.background);
  await ports.recordStep(userId, generationId, { stage: 'generating', progress: PROGRESS.generating });
  return { prompt };
}
