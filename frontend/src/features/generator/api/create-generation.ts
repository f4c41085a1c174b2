import * as z from 'zod';
import { apiCall } from '../../../lib/api-client';
import { generationStatusSchema } from '../../../lib/api/contracts';
import type { BackgroundId, StyleId } from '../utils/content';

/** `POST /api/generations` body. */
export interface CreateGenerationInput {
  style: StyleId;
  background: BackgroundId;
  referenceKeys: string[];
}

/** `POST /api/generations` 202 answer. */
export const createdGenerationSchema = z.object({
  id: z.string().min(1),
  status: generationStatusSchema,
  progress: z.number(),
  /** The balance after the 6 credits were reserved. */
  credits: z.number().int(),
});
export type CreatedGeneration = z.infer<typeof createdGenerationSchema>;

/**
 * `POST /api/generations`: starts a generation (reserves 6 credits).
 * @throws {ApiError} 402 `INSUFFICIENT_CREDITS` with `details.credits`; 409 while another generation runs
 */
export function createGeneration(input: CreateGenerationInput): Promise<CreatedGeneration> {
  return apiCall('/generations', createdGenerationSchema, { method: 'POST', body: input });
}
