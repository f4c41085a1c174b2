import { VISION_MEMORY_MB, type FunctionEntry } from '../../functions/catalogue';
import type { ProviderTimeouts } from '../../functions/domain/provider-timeouts';

/** The catalogue function that makes one provider call per invocation (the workflow's CallProvider task). */
export const SLOT_FUNCTION = 'generation-call-provider';

/**
 * The catalogue with the call function's Lambda timeout set from the configured model and quality
 * (functions/domain/provider-timeouts.ts), every other entry as it is. With the offline `local` provider (a
 * non-prod stack deployed with `-c imageProvider=local`) the call function composites the headshot itself with the
 * face and person models, so it gets the vision functions' memory ({@link VISION_MEMORY_MB}) instead of its own
 * (sized for waiting on OpenAI).
 */
export function withSlotTimeout(
  catalogue: readonly FunctionEntry[],
  timeouts: ProviderTimeouts,
  imageProvider: 'openai' | 'local' = 'openai',
): FunctionEntry[] {
  return catalogue.map((entry) =>
    entry.name === SLOT_FUNCTION
      ? {
          ...entry,
          timeoutSeconds: timeouts.lambdaSeconds,
          ...(imageProvider === 'local' ? { memorySize: VISION_MEMORY_MB } : {}),
        }
      : entry,
  );
}
