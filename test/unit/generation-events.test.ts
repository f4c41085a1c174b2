import { describe, expect, it } from 'vitest';
import { loadEvent } from '../helpers/events';
import { createGenerationBody, createUploadsBody } from '../../functions/contracts';
import { buildPromptInput } from '../../functions/workflow/inputs/build-prompt';
import { compensationInput } from '../../functions/workflow/inputs/compensation';
import { callProviderInput } from '../../functions/workflow/inputs/call-provider';
import { finishHeadshotInput } from '../../functions/workflow/inputs/finish-headshot';
import { generationRef } from '../../functions/workflow/inputs/generation-ref';
import { prepareReferencesInput } from '../../functions/workflow/inputs/prepare-references';

/** The sample events (test/events/<handler module>.json, SAM convention) stay valid inputs of their handlers. */
const sample = (name: string) => loadEvent(name);

describe('generation sample events', () => {
  it('HTTP events carry bodies the routes accept', () => {
    expect(createUploadsBody.safeParse(JSON.parse(String(sample('http/create-uploads').body))).success).toBe(
      true,
    );
    expect(
      createGenerationBody.safeParse(JSON.parse(String(sample('http/create-generation').body))).success,
    ).toBe(true);
    expect(sample('http/get-generation').pathParameters).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
    });
  });

  it('workflow events match the task inputs the ASL builds', () => {
    expect(prepareReferencesInput.safeParse(sample('workflow/prepare-references')).success).toBe(true);
    expect(buildPromptInput.safeParse(sample('workflow/build-prompt')).success).toBe(true);
    expect(callProviderInput.safeParse(sample('workflow/call-provider')).success).toBe(true);
    expect(finishHeadshotInput.safeParse(sample('workflow/finish-headshot')).success).toBe(true);
    expect(generationRef.safeParse(sample('workflow/finalize')).success).toBe(true);
    expect(compensationInput.safeParse(sample('workflow/refund-credits')).success).toBe(true);
    expect(compensationInput.safeParse(sample('workflow/mark-failed')).success).toBe(true);
  });
});
