import { ulid } from 'ulid';
import { startGenerationExecution } from '../adapters/executions';
import { newGenerationItem, setExecutionArn } from '../adapters/generations';
import { generationStartGuard } from '../adapters/generation-guard';
import { getUser, spendCredits, type CreditChange, type CreditChangeResult } from '../adapters/ledger';
import { cachedPhotoChecks } from '../adapters/photo-checks';
import { ensureUser } from '../adapters/user-creation';
import { headObject, objectSha256, type ObjectHead } from '../adapters/storage';
import type { TransactItem } from '../adapters/support/ledger-items';
import { sweepMarkerPut } from '../adapters/sweeper';
import { logger } from '../common/logger';
import { countMetric } from '../common/metrics';
import type { GenerationStarted } from '../contracts';
import { generationCost } from '../domain/generation-cost';
import type { Resolution } from '../domain/headshot-variants';
import {
  InvalidUploadError,
  MixedPeopleError,
  UploadMissingError,
  WorkflowStartFailedError,
} from '../domain/errors';
import { GENERATION_ERROR_MESSAGES, type GenerationError } from '../domain/generation-errors';
import { HEADSHOTS_PER_GENERATION } from '../domain/slots';
import { MAX_UPLOAD_BYTES } from '../domain/photos';
import { checkPhotoSet, mixesPeople, type PhotoFacts } from '../domain/photo-checks';
import { PROGRESS } from '../domain/generation-status';
import { type Background, type Style } from '../domain/styles';
import type { Outfit } from '../domain/outfits';
import type { EditOrder } from '../domain/edits';
import { generationStartMs, referenceSetHash } from '../domain/likeness-cap';
import { seatUseOf, type GenerationPayer } from '../domain/team-seats';
import { payerAccount, type AccountRef } from '../domain/ledger-account';
import { safetyIdentifier } from '../domain/provider-refusals';
import { signupBonusPepper } from '../config/signup-bonus';
import { enforceLikenessCapAtStart } from './likeness-cap';
import { enforceRefusalCapAtStart } from './provider-refusals';
import { assertLineHasRoom } from './provider-line-room';
import { compensateGeneration } from './compensate-generation';
import {
  generationPaymentAdapters,
  generationSpend,
  reportedCredits,
  spendRefusal,
  type GenerationPaymentPorts,
  type SpendPlan,
} from './generation-payment';

/**
 * Starting a generation, shared by "create generation" (6 slots) and "regenerate headshot" (1 slot): the same spend,
 * the same guard, the same workflow (docs/architecture.md §4).
 */

/**
 * What starting a generation needs from the outside world (and the use cases it runs); who pays is read and written
 * through {@link GenerationPaymentPorts} (a team's ledger and the member's allowance).
 */
export interface StartGenerationPorts extends GenerationPaymentPorts {
  headObject: (bucket: 'uploads', key: string) => Promise<ObjectHead | undefined>;
  /** The SHA-256 (hex) of an upload's bytes; `undefined` when it is gone. */
  objectSha256: (bucket: 'uploads', key: string) => Promise<string | undefined>;
  /** What the photo check (`POST /api/photo-checks`) stored about uploads at these ETags (adapters/photo-checks.ts). */
  cachedPhotoChecks: typeof cachedPhotoChecks;
  ensureUser: typeof ensureUser;
  getUser: typeof getUser;
  generationStartGuard: typeof generationStartGuard;
  /** The likeness cap's check before anything is spent (use-cases/likeness-cap.ts). */
  enforceLikenessCap: (
    sub: string,
    balance: number,
    referenceSetHash: string,
    nowMs: number,
  ) => Promise<void>;
  /** The provider refusals' check before anything is spent (use-cases/provider-refusals.ts). */
  enforceRefusalCap: (sub: string, referenceSetHash: string, nowMs: number) => Promise<void>;
  /**
   * Whether the provider line can serve the generation's `slots` before its deadline, in the lane of whoever pays
   * (use-cases/provider-line-room.ts): throws `QuotaExceededError` (`provider-line`) when not.
   */
  assertLineHasRoom: (payer: AccountRef, slots: number, nowMs: number) => Promise<void>;
  /** The caller's `safety_identifier` for every provider call of the generation (domain/provider-refusals.ts). */
  safetyIdentifier: (sub: string) => string;
  spendCredits: (change: CreditChange) => Promise<CreditChangeResult>;
  sweepMarkerPut: (sub: string, generationId: string, createdAt: string) => TransactItem;
  startGenerationExecution: typeof startGenerationExecution;
  setExecutionArn: typeof setExecutionArn;
  compensateGeneration: (sub: string, id: string, error: GenerationError) => Promise<void>;
  /** A new generation id (a ULID: its time is the generation's start for the likeness cap). */
  newId: () => string;
  /** The clock. */
  now: () => Date;
}

/** The real adapters of {@link StartGenerationPorts}. */
export const startGenerationAdapters: StartGenerationPorts = {
  ...generationPaymentAdapters,
  headObject,
  objectSha256,
  cachedPhotoChecks,
  ensureUser,
  getUser,
  generationStartGuard,
  enforceLikenessCap: (sub, balance, hash, nowMs) => enforceLikenessCapAtStart(sub, balance, hash, nowMs),
  enforceRefusalCap: (sub, hash, nowMs) => enforceRefusalCapAtStart(sub, hash, nowMs),
  assertLineHasRoom: (payer, slots, nowMs) => assertLineHasRoom(payer, slots, nowMs),
  safetyIdentifier: (sub) => safetyIdentifier(sub, signupBonusPepper()),
  spendCredits,
  sweepMarkerPut,
  startGenerationExecution,
  setExecutionArn,
  compensateGeneration: (sub, id, error) => compensateGeneration(sub, id, error),
  newId: ulid,
  now: () => new Date(),
};

/** Who starts a generation: the caller's `sub`, and the e-mail of an ID token (to create a missing user item). */
export interface Starter {
  sub: string;
  email: string | undefined;
}

/**
 * Checks that every reference key is still stored and is an image of at most 10 MB (an object put past the POST
 * policy — leaked credentials, a misconfigured policy — is checked again here), that the photo check does not call
 * the set `mixed_people` ({@link assertOnePerson}), then reads each one's bytes for the set's identity.
 *
 * @param sub the caller, whose photo checks are read
 * @returns the photos' identity for the likeness cap and the refusal rules: a hash of their contents
 *   (domain/likeness-cap.ts `referenceSetHash`)
 * @throws {UploadMissingError} / {InvalidUploadError} naming the photo; {MixedPeopleError} for photos of different
 *   people (nothing read further, nothing spent)
 */
export async function assertReferencesStored(
  sub: string,
  referenceKeys: readonly string[],
  ports: Pick<
    StartGenerationPorts,
    'headObject' | 'objectSha256' | 'cachedPhotoChecks'
  > = startGenerationAdapters,
): Promise<string> {
  const found = await Promise.all(referenceKeys.map((key) => ports.headObject('uploads', key)));
  const heads = found.map((head, i): ObjectHead => {
    if (!head) throw new UploadMissingError(i);
    if (head.size < 1 || head.size > MAX_UPLOAD_BYTES || !head.contentType?.startsWith('image/')) {
      throw new InvalidUploadError(i);
    }
    return head;
  });
  await assertOnePerson(sub, referenceKeys, heads, ports);
  const digests = await Promise.all(referenceKeys.map((key) => ports.objectSha256('uploads', key)));
  // A photo deleted between its HEAD and its read is as missing as one never stored.
  const gone = digests.findIndex((digest) => !digest);
  if (gone >= 0) throw new UploadMissingError(gone);
  return referenceSetHash(digests);
}

/**
 * Refuses a set the photo check calls `mixed_people` (domain/photo-checks.ts `mixesPeople`): its photos show
 * different people and nobody can tell which is the customer, so no reference choice is right (issue 33: no other
 * person's photo is sent). The set is judged by the photo check's own rules on what `POST /api/photo-checks` stored
 * for these very versions (the HEAD's ETag, as that route looks them up): the start runs no vision model. A set with
 * a photo not checked at its current version is left to PrepareReferences, which judges every photo and fails such
 * a set (refunded): judging only the checked part of a set could call the customer's own photos mixed.
 *
 * @throws {MixedPeopleError}
 */
async function assertOnePerson(
  sub: string,
  referenceKeys: readonly string[],
  heads: readonly ObjectHead[],
  ports: Pick<StartGenerationPorts, 'cachedPhotoChecks'>,
): Promise<void> {
  const stored = await ports.cachedPhotoChecks(
    sub,
    referenceKeys.map((key, i) => ({ key, etag: heads[i]!.etag ?? `size:${heads[i]!.size}` })),
  );
  const facts = referenceKeys.map((key) => stored.get(key)?.facts);
  // A readable photo checked before perceptual hashes were kept is analysed again by the route: its copies would
  // each vote here.
  const judged = (f: PhotoFacts | undefined): f is PhotoFacts => !!f && (!f.readable || !!f.imageHash);
  if (!facts.every(judged)) return;
  if (mixesPeople(checkPhotoSet(facts))) throw new MixedPeopleError();
}

/** What {@link startGeneration} starts. */
export interface GenerationRequest {
  style: Style;
  background: Background;
  referenceKeys: string[];
  /** The workflow's slots: all 6 by default; `[0]` for a regeneration. */
  slots?: readonly number[];
  /** The headshot a one-slot generation regenerates. */
  regeneratedFrom?: string;
  /** What the customer wears in every slot (domain/outfits.ts); absent: their own clothing. */
  outfit?: Outfit;
  /** A one-slot generation's slot variation (domain/prompts.ts `slotVariation`): a regeneration keeps its headshot's. */
  variation?: number;
  /** The edit a one-slot generation makes (use-cases/edit-headshot.ts): a new version of its headshot. */
  edit?: EditOrder;
  /** The canvas of every slot, priced by domain generationCost (`high`: 2 credits a slot); default `standard`. */
  resolution?: Resolution;
  /** The photos' identity ({@link assertReferencesStored}), for the likeness cap. */
  referenceSetHash: string;
  /**
   * Who pays (domain/team-seats.ts): absent or `'user'`, the customer; `{ team }`, that team's ledger and the member's
   * allowance (use-cases/team-payer.ts checked the membership, the look and the allowance first).
   */
  payer?: GenerationPayer;
  /** A team's custom backdrop colour (`#rrggbb`, with `background` `studio`), kept on the generation item. */
  backgroundColour?: string;
}

/**
 * In ONE ledger transaction spends one credit per slot (ref = the generation id; at most one generation in flight
 * per user) from the payer's ledger — the customer's, or a team's with the member's allowance counter
 * (use-cases/generation-payment.ts) — and creates the generation item, then starts the workflow execution named after
 * the generation id. If the start fails, the generation is compensated at once (every credit back, status failed).
 *
 * @returns the started generation (`status: 'queued'`, `progress: 5`, `creditsReserved`, the caller's own balance)
 * @throws {InsufficientCreditsError} balance under the cost ({TeamNoSeatsError} for a team's; {TeamAllowanceUsedError}
 *   when the member's allowance went meanwhile); {AccountDeletingError}; {WorkflowStartFailedError}
 *   (refunded); {QuotaExceededError} while another generation of the caller is running, or (`likeness-attempts`)
 *   when the day's provider calls are used up, or (`provider-refusals`) while the account's refusals are over their
 *   limit; {PhotosDontMatchError} for photos whose headshots kept failing the likeness check
 *   (use-cases/likeness-cap.ts); {PhotosRefusedError} for photos set aside after the provider's refusals
 *   (use-cases/provider-refusals.ts); {QuotaExceededError} (`provider-line`) when the provider line would not serve
 *   the generation before its deadline (use-cases/provider-line-room.ts: nothing spent, the time to try again)
 */
export async function startGeneration(
  starter: Starter,
  request: GenerationRequest,
  ports: StartGenerationPorts = startGenerationAdapters,
): Promise<GenerationStarted> {
  const { sub } = starter;
  const resolution = request.resolution ?? 'standard';
  const slotCount = request.slots?.length ?? HEADSHOTS_PER_GENERATION;
  const cost = generationCost({ resolution, slotCount });
  const seat = seatUseOf({ userId: sub, payer: request.payer, slotCount });
  // The post-confirmation trigger creates users; this covers a user whose trigger did not run (idempotent).
  const user = starter.email ? await ports.ensureUser(sub, starter.email) : await ports.getUser(sub);
  const id = ports.newId();
  const now = ports.now().toISOString();
  // What the caller may spend on it: their own credits, and a team-paid generation's cost, which the team pays.
  const available = (user?.credits ?? 0) + (seat ? cost : 0);
  // The guard (one generation in flight, no deletion in progress) and the sweeper's marker commit with the spend.
  const guard = await ports.generationStartGuard(user, id, seat ? 0 : cost);
  // The likeness cap, the refusal rules and the line's room, before anything is spent (a balance under the cost is
  // answered by the spend: 402).
  if (user && available >= cost) {
    await ports.enforceRefusalCap(sub, request.referenceSetHash, generationStartMs(id));
    await ports.enforceLikenessCap(sub, available, request.referenceSetHash, generationStartMs(id));
    await ports.assertLineHasRoom(
      payerAccount({ userId: sub, payer: request.payer }),
      slotCount,
      generationStartMs(id),
    );
  }
  const plan: SpendPlan = {
    sub,
    id,
    cost,
    seat,
    guard,
    extraItems: [ports.sweepMarkerPut(sub, id, now)],
    generationItem: newGenerationItem({
      id,
      sub,
      style: request.style,
      background: request.background,
      referenceKeys: request.referenceKeys,
      now,
      ...(request.slots ? { slotCount: request.slots.length } : {}),
      creditsReserved: cost,
      ...(resolution === 'high' ? { resolution } : {}),
      ...(request.regeneratedFrom ? { regeneratedFrom: request.regeneratedFrom } : {}),
      ...(request.outfit ? { outfit: request.outfit } : {}),
      ...(request.variation !== undefined ? { variation: request.variation } : {}),
      ...(request.edit ? { edit: request.edit } : {}),
      ...(seat ? { payer: request.payer } : {}),
      ...(request.backgroundColour ? { backgroundColour: request.backgroundColour } : {}),
      referenceSetHash: request.referenceSetHash,
      safetyIdentifier: ports.safetyIdentifier(sub),
    }),
  };
  let balance: number;
  try {
    ({ balance } = await ports.spendCredits(generationSpend(plan, ports)));
  } catch (error) {
    throw await spendRefusal(error, plan, ports);
  }
  await startWorkflow(sub, id, request, cost, ports);
  countMetric('GenerationsStarted');
  return {
    id,
    status: 'queued',
    stage: 'queued',
    progress: PROGRESS.queued,
    style: request.style,
    background: request.background,
    creditsReserved: cost,
    credits: reportedCredits(plan, balance, user?.credits ?? 0),
    createdAt: now,
  };
}

/**
 * Starts the generation's execution and records its ARN; when Step Functions refuses, the generation is compensated
 * at once (every credit back, status failed).
 *
 * @param cost the credits spent, for the refusal's message
 * @throws {WorkflowStartFailedError} when the execution did not start (refunded)
 */
async function startWorkflow(
  sub: string,
  id: string,
  request: GenerationRequest,
  cost: number,
  ports: StartGenerationPorts,
): Promise<void> {
  try {
    const executionArn = await ports.startGenerationExecution({
      generationId: id,
      userId: sub,
      style: request.style,
      background: request.background,
      referenceKeys: request.referenceKeys,
      ...(request.slots ? { slots: request.slots } : {}),
    });
    // Informative only (the reconciliation derives the ARN from the id): a failure here must not fail the request.
    await ports
      .setExecutionArn(sub, id, executionArn)
      .catch((error: unknown) =>
        logger.warn('Could not record the execution ARN', { generationId: id, error: error as Error }),
      );
  } catch (error) {
    logger.error('StartExecution failed; refunding the generation', {
      generationId: id,
      error: error as Error,
    });
    await ports.compensateGeneration(sub, id, {
      code: 'START_FAILED',
      message: GENERATION_ERROR_MESSAGES.START_FAILED,
    });
    throw new WorkflowStartFailedError(cost);
  }
}
