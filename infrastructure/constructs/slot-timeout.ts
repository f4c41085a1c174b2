import type { FunctionEntry } from '../../functions/catalogue';
import type { ProviderTimeouts } from '../../functions/domain/provider-timeouts';

/** The catalogue function that makes one provider call per invocation (the workflow's GenerateHeadshot task). */
export const SLOT_FUNCTION = 'generation-generate-headshot';

/**
 * The catalogue with the slot function's Lambda timeout set from the configured model and quality
 * (functions/domain/provider-timeouts.ts), every other entry as it is.
 */
export function withSlotTimeout(
  catalogue: readonly FunctionEntry[],
  timeouts: ProviderTimeouts,
): FunctionEntry[] {
  return catalogue.map((entry) =>
    entry.name === SLOT_FUNCTION ? { ...entry, timeoutSeconds: timeouts.lambdaSeconds } : entry,
  );
}
