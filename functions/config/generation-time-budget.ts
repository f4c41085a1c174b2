import { generationTimeBudget, type GenerationTimeBudget } from '../domain/generation-deadline';
import { providerTimeouts } from '../domain/provider-timeouts';
import { generationSettings } from './generation';
import { imageProviderSettings } from './image-provider';

/**
 * This environment's generation time budget (domain/generation-deadline.ts): GENERATION_DEADLINE_MINUTES and the
 * slot's worst case for the configured OpenAI model, quality and client timeout — the numbers the stack gave the
 * state machine (every function gets them), so the sweeper and the deletions judge a generation by the limits its
 * execution runs under.
 *
 * @throws {ConfigError} naming each bad variable
 */
export function generationTimeBudgetSettings(): GenerationTimeBudget {
  const provider = imageProviderSettings();
  const slot = providerTimeouts(
    provider.OPENAI_IMAGE_MODEL,
    provider.OPENAI_IMAGE_QUALITY,
    provider.OPENAI_TIMEOUT_SECONDS,
  );
  return generationTimeBudget(generationSettings().GENERATION_DEADLINE_MINUTES, slot.slotSeconds);
}
