import { apiCall } from '../../../lib/api-client';
import { generationStartedSchema, type GenerationStarted } from '../../../lib/api/contracts';
import type { BackgroundId, OutfitId, StyleId } from '../utils/content';

/** `POST /api/generations` body. */
export interface CreateGenerationInput {
  style: StyleId;
  background: BackgroundId;
  referenceKeys: string[];
  /** What the person wears (step 2); absent: their own clothing. */
  outfit?: OutfitId;
  /** `high`: the high-resolution option (2 credits per headshot); absent: standard. */
  resolution?: 'high';
  /** A team generation (issue 37): the team pays, and the choice must be in its look. */
  teamId?: string;
  /** A team look's custom colour (`#rrggbb`), sent with `background: 'studio'`. */
  backgroundColour?: string;
}

/** `POST /api/generations` 202 answer: the credits reserved and the balance after them. */
export type CreatedGeneration = GenerationStarted;

/**
 * `POST /api/generations`: starts a generation (reserves 6 credits, 12 at high resolution).
 * @throws {ApiError} 402 `INSUFFICIENT_CREDITS` with `details.credits`; 409 while another generation runs; for a team
 *   generation 402 `TEAM_NO_SEATS`, 409 `TEAM_ALLOWANCE_USED`, 400 `LOOK_LOCKED` (docs/teams.md "Errors")
 */
export function createGeneration(input: CreateGenerationInput): Promise<CreatedGeneration> {
  return apiCall('/generations', generationStartedSchema, { method: 'POST', body: input });
}
