import { getGeneration, type GenerationRecord } from '../adapters/generations';
import { getHeadshot } from '../adapters/headshots/records';
import { getHeadshotVersion } from '../adapters/headshots/versions';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import type { GenerationStarted } from '../contracts';
import { EDIT_SLOTS, type EditOrder, type EditRequest } from '../domain/edits';
import { ItemNotFoundError } from '../domain/errors';
import { assertLookKeepingEdit } from '../domain/team-look';
import {
  startGeneration,
  startGenerationAdapters,
  type StartGenerationPorts,
  type Starter,
} from './start-generation';
import { HEADSHOT_NOT_FOUND, storedPhotoSetHash } from './stored-photo-set';
import { oneSlotPayer } from './team-payer';

/** What an edit asks for: what to change and, when a version (not the original) is edited, which one. */
export interface EditAsked {
  request: EditRequest;
  /** The version of the headshot to edit (`VERSION#<headshotId>#<versionId>`); absent: the original headshot. */
  versionId?: string;
}

/**
 * What an edit needs from the outside world (adapters): its quota, the headshot, the version edited, the headshot's
 * generation (its reference photos), and the start's.
 */
export interface EditHeadshotPorts extends StartGenerationPorts {
  /** Counts one edit attempt of `sub` in the hour, or throws {QuotaExceededError}. */
  consumeEdit: (sub: string) => Promise<unknown>;
  getHeadshot: typeof getHeadshot;
  /** One version of one of `sub`'s headshots; `undefined` when there is none (adapters/headshots/versions.ts). */
  getHeadshotVersion: (sub: string, headshotId: string, versionId: string) => Promise<object | undefined>;
  getGeneration: (sub: string, id: string) => Promise<GenerationRecord | undefined>;
}

const adapters: EditHeadshotPorts = {
  ...startGenerationAdapters,
  consumeEdit: (sub) => consumeQuota({ sub }, quotaRules().edits),
  getHeadshot,
  getHeadshotVersion,
  getGeneration,
};

/**
 * An edit of a finished headshot (issue 36, docs/architecture.md §4, docs/product-spec.md §2 "Edit a headshot"): a
 * one-slot generation carrying the {@link EditOrder}, through the same workflow, provider line and deadline as
 * "Regenerate (1 credit)". CallProvider sends the provider the headshot itself (or the version named) with the edit's
 * prompt; FinishHeadshot checks likeness against the headshot's own reference photos and saves a new version. 1
 * credit, refunded by the workflow when nothing is delivered.
 *
 * An edit of a team-paid headshot is team-paid, from the member's team edits, while they are a member, and only of the
 * kinds that keep the team's look (retouch, reframe, upscale: docs/teams.md "Money"; use-cases/team-payer.ts).
 *
 * Every attempt counts against the caller's hourly `edits` quota before anything is read (each attempt reads the
 * headshot, its generation and HEADs its photos), as a regeneration's does (docs/architecture.md §2 "Per-user
 * quotas").
 *
 * @throws {QuotaExceededError} past the hourly edit quota (nothing read or spent)
 * @throws {ItemNotFoundError} 'Headshot not found.' for an unknown headshot or version, another user's, or one whose
 *   generation is gone
 * @throws {LookLockedError} a background or outfit edit of a team headshot; {TeamAllowanceUsedError} /
 *   {TeamNoSeatsError} the member's team edits or the team's credits are used (nothing spent)
 * @throws {PhotosExpiredError} the reference photos are no longer stored (nothing spent)
 * @throws {MixedPeopleError} and what {@link startGeneration} throws ({InsufficientCreditsError},
 *   {AccountDeletingError}, {WorkflowStartFailedError} refunded, the likeness cap's and the line's refusals)
 */
export async function editHeadshot(
  starter: Starter,
  headshotId: string,
  asked: EditAsked,
  ports: EditHeadshotPorts = adapters,
): Promise<GenerationStarted> {
  const { sub } = starter;
  await ports.consumeEdit(sub);
  const [headshot, version] = await Promise.all([
    ports.getHeadshot(sub, headshotId),
    asked.versionId === undefined ? undefined : ports.getHeadshotVersion(sub, headshotId, asked.versionId),
  ]);
  if (!headshot || (asked.versionId !== undefined && !version))
    throw new ItemNotFoundError(HEADSHOT_NOT_FOUND);
  const generation = await ports.getGeneration(sub, headshot.generationId);
  if (!generation) throw new ItemNotFoundError(HEADSHOT_NOT_FOUND);
  const payer = await oneSlotPayer(generation, sub, ports);
  if (payer) assertLookKeepingEdit(asked.request.kind);
  const referenceSetHash = await storedPhotoSetHash(sub, generation.referenceKeys, ports);
  const edit: EditOrder = {
    headshotId: headshot.id,
    ...(asked.versionId === undefined ? {} : { sourceVersionId: asked.versionId }),
    request: asked.request,
  };
  return startGeneration(
    starter,
    {
      style: headshot.style,
      background: headshot.background,
      referenceKeys: generation.referenceKeys,
      slots: EDIT_SLOTS,
      edit,
      referenceSetHash,
      ...(payer ? { payer } : {}),
    },
    ports,
  );
}
