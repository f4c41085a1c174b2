import { describe, expect, it } from 'vitest';
import { GenerationInProgressError } from '../../functions/domain/errors';

/*
 * The 409 a deletion gets while a generation may still run (docs/architecture.md §2) states no duration (issue 35):
 * the real image service's time is unmeasured (docs/decisions/001-openai-image-model.md) and the line may be long.
 */

describe('GenerationInProgressError', () => {
  it('asks the customer to wait without promising a number of minutes', () => {
    expect(new GenerationInProgressError('g1').message).toBe(
      'Your headshots are still being generated. Please wait until they are ready, then delete your photos.',
    );
    expect(new GenerationInProgressError('g1', 'account').message).toBe(
      'Your headshots are still being generated. Please wait until they are ready, then delete your account.',
    );
  });
});
