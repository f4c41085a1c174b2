import { getGeneration } from '../adapters/generations';
import { getHeadshot } from '../adapters/headshots/records';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import type { GenerationStarted } from '../contracts';
import { ItemNotFoundError } from '../domain/errors';
import { REGENERATE_SLOTS } from '../domain/slots';
import {
  startGeneration,
  startGenerationAdapters,
  type StartGenerationPorts,
  type Starter,
} from './start-generation';

import { HEADSHOT_NOT_FOUND, storedPhotoSetHash } from './stored-photo-set';
import { oneSlotPayer } from './team-payer';

/** What a regeneration needs from the outside world: its quota, the headshot and its generation, and the start's. */
export interface RegenerateHeadshotPorts extends StartGenerationPorts {
  /** Counts one regeneration attempt of `sub` in the hour, or throws {QuotaExceededError}. */
  consumeRegeneration: (sub: string) => Promise<unknown>;
  getHeadshot: typeof getHeadshot;
  getGeneration: typeof getGeneration;
}

const adapters: RegenerateHeadshotPorts = {
  ...startGenerationAdapters,
  consumeRegeneration: (sub) => consumeQuota({ sub }, quotaRules().regenerations),
  getHeadshot,
  getGeneration,
};

/**
 * "Regenerate (1 credit)" (docs/architecture.md §4): a one-slot generation with the style, background, outfit and
 * reference photos of the headshot's own generation and the headshot's slot variation (its pose, framing, expression
 * and light: domain/prompts.ts), through the same workflow; `regeneratedFrom` names the original.
 *
 * A team-paid headshot's regeneration is team-paid again, from the member's team edits, while they are a member
 * (use-cases/team-payer.ts `oneSlotPayer`; docs/teams.md "Money"), with its generation's backdrop colour.
 *
 * Every attempt counts against the caller's hourly `regenerations` quota before anything is read (each attempt reads
 * the headshot, its generation and HEADs its photos), so one caller's loop costs the table and S3 nothing more once
 * the window is used (docs/architecture.md §2 "Per-user quotas").
 *
 * @throws {QuotaExceededError} past the hourly regeneration quota (nothing read or spent);
 *   {ItemNotFoundError} unknown headshot, another user's, or its generation is gone; {TeamAllowanceUsedError} /
 *   {TeamNoSeatsError} for a team headshot whose member's edits or team's credits are used; {PhotosExpiredError} the
 *   reference photos are no longer stored; {MixedPeopleError} for photos the photo check calls `mixed_people` (a
 *   set started before issue 33 refused them); and what {@link startGeneration} throws
 */
export async function regenerateHeadshot(
  starter: Starter,
  headshotId: string,
  ports: RegenerateHeadshotPorts = adapters,
): Promise<GenerationStarted> {
  await ports.consumeRegeneration(starter.sub);
  const headshot = await ports.getHeadshot(starter.sub, headshotId);
  if (!headshot) throw new ItemNotFoundError(HEADSHOT_NOT_FOUND);
  const generation = await ports.getGeneration(starter.sub, headshot.generationId);
  if (!generation) throw new ItemNotFoundError(HEADSHOT_NOT_FOUND);
  const payer = await oneSlotPayer(generation, starter.sub, ports);
  const referenceSetHash = await storedPhotoSetHash(starter.sub, generation.referenceKeys, ports);
  return startGeneration(
    starter,
    {
      style: headshot.style,
      background: headshot.background,
      referenceKeys: generation.referenceKeys,
      slots: REGENERATE_SLOTS,
      regeneratedFrom: headshot.id,
      // The redo keeps what the customer chose and the pose they asked to redo (domain/prompts.ts slotVariation).
      ...(headshot.outfit ? { outfit: headshot.outfit } : {}),
      variation: headshot.variation ?? headshot.slot,
      referenceSetHash,
      ...(payer ? { payer } : {}),
      ...(generation.backgroundColour ? { backgroundColour: generation.backgroundColour } : {}),
    },
    ports,
  );
}
