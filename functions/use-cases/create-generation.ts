import type { CreateGenerationBody, GenerationStarted } from '../contracts';
import { ForeignUploadError, HighResolutionUnavailableError } from '../domain/errors';
import { highResolutionAvailable } from '../config/high-resolution';
import { isOwnUploadKey } from '../domain/object-keys';
import {
  assertReferencesStored,
  startGeneration,
  startGenerationAdapters,
  type StartGenerationPorts,
  type Starter,
} from './start-generation';
import { teamPayer } from './team-payer';

/** What creating a generation needs from the outside world: whether the image model makes high resolution, and the start's. */
export interface CreateGenerationPorts extends StartGenerationPorts {
  /** Whether the configured image model can make the high-resolution canvas (config/high-resolution.ts). */
  highResolutionAvailable: () => boolean;
}

const adapters: CreateGenerationPorts = { ...startGenerationAdapters, highResolutionAvailable };

/**
 * "Create generation" (docs/architecture.md §4): checks every key is one of the caller's uploads and exists (nothing
 * is spent otherwise), then starts a 6-slot generation, at high resolution when asked and the configured image model
 * can make it. With `teamId` (docs/teams.md "Money"), a team generation: the caller must be a current member, the
 * style, background (or the look's colour) and outfit within the team's look, and their one generation unused; the
 * team's ledger pays, never the caller's or the owner's own credits.
 *
 * @throws {ForeignUploadError} for a key that is not the caller's upload (the same answer for any foreign or
 *   malformed key, so nothing about other users is revealed); {HighResolutionUnavailableError} for `high` on a model
 *   that cannot make it; {UploadMissingError}; {InvalidUploadError}; {MixedPeopleError} for photos the photo check
 *   calls `mixed_people` (./start-generation.ts `assertReferencesStored`); for a team generation
 *   {TeamNotFoundError}, {LookLockedError}, {TeamAllowanceUsedError}, {TeamNoSeatsError} (nothing spent); and what
 *   {@link startGeneration} throws
 */
export async function createGeneration(
  starter: Starter,
  body: CreateGenerationBody,
  ports: CreateGenerationPorts = adapters,
): Promise<GenerationStarted> {
  if (body.resolution === 'high' && !ports.highResolutionAvailable())
    throw new HighResolutionUnavailableError();
  body.referenceKeys.forEach((key, i) => {
    if (!isOwnUploadKey(starter.sub, key)) throw new ForeignUploadError(i);
  });
  const { teamId, backgroundColour, ...choice } = body;
  const payer =
    teamId === undefined
      ? undefined
      : await teamPayer(teamId, starter.sub, 'generationsUsed', { ...choice, backgroundColour }, ports);
  const referenceSetHash = await assertReferencesStored(starter.sub, body.referenceKeys, ports);
  return startGeneration(
    starter,
    {
      ...choice,
      referenceSetHash,
      ...(payer ? { payer } : {}),
      ...(backgroundColour === undefined ? {} : { backgroundColour }),
    },
    ports,
  );
}
