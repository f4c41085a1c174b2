import { apiCall } from '../../../lib/api-client';
import { generationStartedSchema, type GenerationStarted } from '../../../lib/api/contracts';
import type { BackgroundId, StyleId } from '../utils/content';

/** `POST /api/generations` body. */
export interface CreateGenerationInput {
  style: StyleId;
  background: BackgroundId;
  referenceKeys: string[];
}

/** `POST /api/generations` 202 answer: the credits reserved and the balance after them. */
export type CreatedGeneration = GenerationStarted;

/**
 * `POST /api/generations`: starts a generation (reserves 6 credits).
 * @throws {ApiError} 402 `INSUFFICIENT_CREDITS` with `details.credits`; 409 while another generation runs
 */
export function createGeneration(input: CreateGenerationInput): Promise<CreatedGeneration> {
  return apiCall('/generations', generationStartedSchema, { method: 'POST', body: input });
}
