import {
  BatchGetCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { loadConfig } from '../config';
import { GENERATION_COST } from '../domain/credits';
import {
  GenerationClosedError,
  GenerationNotFoundError,
  isTerminal,
  missingSlots,
  NoHeadshotsError,
  PROGRESS,
  slotRefundRef,
  finalStatus,
  type Background,
  type GenerationError,
  type GenerationStage,
  type GenerationStatus,
  type PhotoProblem,
  type Style,
} from '../domain/generation';
import { documentClient } from './aws';
import { galleryCounterUpdate } from './gallery-stats';
import { generationSk, headshotSk, userPk } from './keys';
import { refundCredits } from './ledger';
import { cancellationCodes, withTransactionRetry } from './transactions';

/**
 * The generation and headshot items (docs/architecture.md §2) and the state changes the API and the workflow make to them.
 *
 * Compensation works by closing: every path that refunds (Finalize, RefundCredits, the reconciliation of a timed-out
 * execution, a failed StartExecution) first sets `closedAt`, and a slot may only save its headshot while `closedAt`
 * is absent (a condition in the same transaction). So a slot that finishes late can never deliver an image whose
 * credit was refunded, and the set of refunded slots — every slot without a headshot once closed — is final.
 * Refunds are per slot with ref `<generationId>#slot-<n>`, so every path can repeat them safely.
 */

/** The generation item as the code sees it (without PK/SK). Timestamps are ISO 8601 UTC. */
export interface GenerationRecord {
  id: string;
  userId: string;
  status: GenerationStatus;
  stage: GenerationStage;
  /** 0-100. */
  progress: number;
  style: Style;
  background: Background;
  /** The upload keys the user chose, in their order. */
  referenceKeys: string[];
  /** Head-and-shoulders crops of the best photos (≤ 3, best first), written by PrepareReferences. */
  references?: string[];
  /** The customer's face descriptor (mean of the references'), base64 float32: what likeness is measured against. */
  referenceDescriptor?: string;
  /** Photos PrepareReferences refused, by index in `referenceKeys`. */
  rejectedPhotos?: { index: number; problem: PhotoProblem }[];
  /** Credits spent when the generation was created (6, or 1 for a regeneration). */
  creditsReserved: number;
  /** Slots the workflow fills: absent (6) for a generation, 1 for "Regenerate (1 credit)". */
  slotCount?: number;
  /** The headshot a one-slot generation regenerates (shown beside it). */
  regeneratedFrom?: string;
  /** Credits given back so far (one per slot without a headshot, once closed). */
  creditsRefunded: number;
  /** Headshots saved. */
  imagesSaved: number;
  /** Slot number (as a string key) → headshot id, for every slot that saved its headshot. */
  slots: Record<string, string>;
  error?: GenerationError;
  executionArn?: string;
  /** The place in line the admission point last recorded (adapters/admission.ts); `at` is when. */
  queue?: { position: number; etaSeconds: number; at: string };
  /** When the provider first admitted one of its slots. */
  admittedAt?: string;
  /** Set once, when the generation stops accepting headshots (see the module comment). */
  closedAt?: string;
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The headshot item (`HEADSHOT#<ulid>`). */
export interface HeadshotRecord {
  id: string;
  userId: string;
  generationId: string;
  /** 0-5: which slot of its generation made it. */
  slot: number;
  style: Style;
  background: Background;
  /** Results-bucket key of the 1024×1024 JPEG. */
  imageKey: string;
  /** Results-bucket key of the WebP thumbnail (≤ 384 px). */
  thumbnailKey: string;
  isFavorite: boolean;
  /** How much it looks like the customer, 0-100 (absent on headshots made before likeness was measured). */
  likeness?: number;
  /** Always 1: one credit per headshot (docs/architecture.md §4). */
  creditsUsed: number;
  createdAt: string;
}

const table = () => loadConfig().TABLE_NAME;
const key = (sub: string, id: string) => ({ PK: userPk(sub), SK: generationSk(id) });

function toRecord(item: Record<string, unknown>): GenerationRecord {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return { slots: {}, imagesSaved: 0, creditsRefunded: 0, ...rest } as GenerationRecord;
}

/**
 * The new generation item (status `queued`, stage `queued`, progress 5), with PK/SK, for the ledger transaction
 * that spends its credits (`spendCredits({ related: { item } })`), so both exist or neither does.
 */
export function newGenerationItem(input: {
  id: string;
  sub: string;
  style: Style;
  background: Background;
  referenceKeys: string[];
  now: string;
  /** 1 for a regeneration of `regeneratedFrom`; absent for the usual 6. */
  slotCount?: number;
  regeneratedFrom?: string;
}): Record<string, unknown> {
  return {
    ...key(input.sub, input.id),
    type: 'generation',
    id: input.id,
    userId: input.sub,
    status: 'queued',
    stage: 'queued',
    progress: PROGRESS.queued,
    style: input.style,
    background: input.background,
    referenceKeys: input.referenceKeys,
    creditsReserved: input.slotCount ?? GENERATION_COST,
    ...(input.slotCount === undefined ? {} : { slotCount: input.slotCount }),
    ...(input.regeneratedFrom === undefined ? {} : { regeneratedFrom: input.regeneratedFrom }),
    creditsRefunded: 0,
    imagesSaved: 0,
    slots: {},
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/** Reads a generation of `sub` (strongly consistent); `undefined` when there is none. */
export async function getGeneration(sub: string, id: string): Promise<GenerationRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: key(sub, id), ConsistentRead: true }),
  );
  return Item ? toRecord(Item) : undefined;
}

/**
 * Reads a generation that must exist.
 *
 * @throws {GenerationNotFoundError}
 */
export async function requireGeneration(sub: string, id: string): Promise<GenerationRecord> {
  const record = await getGeneration(sub, id);
  if (!record) throw new GenerationNotFoundError(`Generation ${id} not found`);
  return record;
}

/** Fields a workflow step may set besides stage and progress. */
export interface StepFields {
  status?: GenerationStatus;
  references?: string[];
  /** The customer's face descriptor (mean of the references'), base64 float32 (domain/likeness.ts). */
  referenceDescriptor?: string;
  rejectedPhotos?: { index: number; problem: PhotoProblem }[];
  executionArn?: string;
}

/**
 * Records a workflow step: stage, progress and any extra fields, only while the generation is open.
 *
 * @throws {GenerationClosedError} when the generation was closed (compensated) in the meantime
 * @throws {GenerationNotFoundError} when it does not exist
 */
export async function recordStep(
  sub: string,
  id: string,
  step: { stage: GenerationStage; progress: number } & StepFields,
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': new Date().toISOString() };
  const sets = ['updatedAt = :now'];
  for (const [field, value] of Object.entries(step)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(sub, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(SK) AND attribute_not_exists(closedAt)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const current = await requireGeneration(sub, id);
    throw new GenerationClosedError(`Generation ${id} is closed (${current.status})`);
  }
}

/** Sets the execution ARN once StartExecution answered (no condition: it is only informative). */
export async function setExecutionArn(sub: string, id: string, executionArn: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: key(sub, id),
      UpdateExpression: 'SET executionArn = :arn',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':arn': executionArn },
    }),
  );
}

/** What {@link saveHeadshot} stores. */
export interface NewHeadshot {
  sub: string;
  generationId: string;
  slot: number;
  style: Style;
  background: Background;
  imageKey: string;
  thumbnailKey: string;
  /** Likeness to the customer, 0-100 (domain/likeness.ts). */
  likeness?: number;
}

/**
 * Saves one slot's headshot in one transaction: the headshot item (isFavorite false, creditsUsed 1), on the
 * generation `slots.<n>` = its id, `imagesSaved` + 1 and `progress` + 8 — only while the generation is open and
 * the slot is still empty — and the gallery's headshot counter on the user item + 1 (adapters/gallery-stats.ts).
 * Idempotent: a repeated call for a saved slot returns the headshot saved first.
 *
 * @returns the headshot's id and whether this call saved it
 * @throws {GenerationClosedError} when the generation was closed before this slot finished (its credit refunded)
 */
export async function saveHeadshot(input: NewHeadshot): Promise<{ headshotId: string; saved: boolean }> {
  const id = ulid();
  const now = new Date().toISOString();
  const slotName = String(input.slot);
  const headshot: HeadshotRecord = {
    id,
    userId: input.sub,
    generationId: input.generationId,
    slot: input.slot,
    style: input.style,
    background: input.background,
    imageKey: input.imageKey,
    thumbnailKey: input.thumbnailKey,
    isFavorite: false,
    ...(input.likeness === undefined ? {} : { likeness: input.likeness }),
    creditsUsed: 1,
    createdAt: now,
  };
  try {
    await withTransactionRetry(() =>
      documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table(),
                Item: { PK: userPk(input.sub), SK: headshotSk(id), type: 'headshot', ...headshot },
                ConditionExpression: 'attribute_not_exists(SK)',
              },
            },
            {
              Update: {
                TableName: table(),
                Key: key(input.sub, input.generationId),
                UpdateExpression:
                  'SET slots.#slot = :id, updatedAt = :now ADD imagesSaved :one, progress :step',
                ConditionExpression:
                  'attribute_exists(SK) AND attribute_not_exists(closedAt) AND attribute_not_exists(slots.#slot)',
                ExpressionAttributeNames: { '#slot': slotName },
                ExpressionAttributeValues: {
                  ':id': id,
                  ':now': now,
                  ':one': 1,
                  ':step': PROGRESS.perHeadshot,
                },
              },
            },
            galleryCounterUpdate(input.sub, { headshots: 1, favorites: 0 }),
          ],
        }),
      ),
    );
    return { headshotId: id, saved: true };
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    const current = await requireGeneration(input.sub, input.generationId);
    const existing = current.slots[slotName];
    if (existing) return { headshotId: existing, saved: false };
    throw new GenerationClosedError(
      `Generation ${input.generationId} closed before slot ${input.slot} was saved`,
    );
  }
}

/**
 * Closes the generation for new headshots (idempotent: the first `closedAt` stays) and returns it as closed.
 *
 * @throws {GenerationNotFoundError}
 */
export async function closeGeneration(sub: string, id: string): Promise<GenerationRecord> {
  const now = new Date().toISOString();
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(sub, id),
        UpdateExpression: 'SET closedAt = if_not_exists(closedAt, :now), updatedAt = :now',
        ConditionExpression: 'attribute_exists(SK)',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toRecord(Attributes ?? {});
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException')
      throw new GenerationNotFoundError(`Generation ${id} not found`);
    throw error;
  }
}

/**
 * Closes the generation and refunds 1 credit for every slot without a headshot (ref `<id>#slot-<n>`, so a repeated
 * call refunds nothing twice), then records `creditsRefunded`.
 *
 * @returns the closed generation, with `creditsRefunded` up to date
 */
export async function refundUndelivered(sub: string, id: string): Promise<GenerationRecord> {
  const closed = await closeGeneration(sub, id);
  const missing = missingSlots(Object.keys(closed.slots).map(Number), {
    slotCount: closed.slotCount,
  });
  // One transaction per slot, one after the other: each is idempotent, and a crash halfway is finished by a retry.
  for (const slot of missing) {
    await refundCredits({ sub, amount: 1, ref: slotRefundRef(id, slot) });
  }
  await update(sub, id, { creditsRefunded: missing.length });
  return { ...closed, creditsRefunded: missing.length };
}

async function update(
  sub: string,
  id: string,
  fields: Record<string, unknown>,
  condition?: Pick<UpdateCommandInput, 'ConditionExpression'> & { values?: Record<string, unknown> },
): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': new Date().toISOString(), ...condition?.values };
  const sets = ['updatedAt = :now'];
  for (const [field, value] of Object.entries(fields)) {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  if (condition?.ConditionExpression?.includes('#status')) names['#status'] = 'status';
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(sub, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition?.ConditionExpression
          ? `attribute_exists(SK) AND ${condition.ConditionExpression}`
          : 'attribute_exists(SK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

const NOT_TERMINAL = {
  ConditionExpression: 'NOT #status IN (:succeeded, :partial, :failed)',
  values: { ':succeeded': 'succeeded', ':partial': 'partial', ':failed': 'failed' },
};

/**
 * Finalize: closes the generation, refunds every empty slot and ends it `succeeded` (6 headshots) or `partial`
 * (1-5), stage `done`, progress 100. Repeating it changes nothing.
 *
 * @throws {NoHeadshotsError} when no slot saved a headshot: the workflow's Catch then refunds all 6 and marks it failed
 */
export async function finalizeGeneration(sub: string, id: string): Promise<GenerationRecord> {
  const current = await requireGeneration(sub, id);
  if (isTerminal(current.status)) return current;
  const closed = await refundUndelivered(sub, id);
  const saved = Object.keys(closed.slots).length;
  const status = finalStatus(saved, { expected: closed.slotCount });
  if (status === 'failed') throw new NoHeadshotsError(`No slot of generation ${id} produced a headshot`);
  const now = new Date().toISOString();
  await update(sub, id, { status, stage: 'done', progress: PROGRESS.done, completedAt: now }, NOT_TERMINAL);
  return { ...closed, status, stage: 'done', progress: PROGRESS.done, completedAt: now };
}

/**
 * Ends a generation that could not finish: `failed` (stage `failed`) when it saved nothing, else `partial` with the
 * headshots it has — in both cases with `error` saying why. Never overwrites a terminal status. Call after
 * {@link refundUndelivered}.
 *
 * @returns whether this call changed the generation
 */
export async function markFailed(sub: string, id: string, error: GenerationError): Promise<boolean> {
  const current = await requireGeneration(sub, id);
  if (isTerminal(current.status)) return false;
  const saved = Object.keys(current.slots).length;
  return update(
    sub,
    id,
    saved > 0
      ? {
          status: 'partial',
          stage: 'done',
          progress: PROGRESS.done,
          error,
          completedAt: new Date().toISOString(),
        }
      : { status: 'failed', stage: 'failed', error, completedAt: new Date().toISOString() },
    NOT_TERMINAL,
  );
}

/**
 * The whole compensation in one call — close, refund every undelivered slot, mark failed — for paths outside the
 * workflow (a failed StartExecution, an execution that timed out or was aborted). Idempotent.
 */
export async function compensateGeneration(sub: string, id: string, error: GenerationError): Promise<void> {
  await refundUndelivered(sub, id);
  await markFailed(sub, id, error);
}

/**
 * Reads headshot items by id (strongly consistent), in the order given; ids without an item (deleted) are skipped.
 */
export async function getHeadshots(sub: string, ids: readonly string[]): Promise<HeadshotRecord[]> {
  if (ids.length === 0) return [];
  const found = new Map<string, HeadshotRecord>();
  let keys: Record<string, unknown>[] = ids.map((id) => ({ PK: userPk(sub), SK: headshotSk(id) }));
  // BatchGet may leave keys unprocessed under load; ask again for those (at most 100 keys per call, we have ≤ 6).
  for (let attempt = 0; keys.length > 0 && attempt < 5; attempt++) {
    const page = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const item of page.Responses?.[table()] ?? []) {
      const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
      found.set(String(item.id), rest as HeadshotRecord);
    }
    keys = (page.UnprocessedKeys?.[table()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    if (keys.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
  }
  return ids.map((id) => found.get(id)).filter((h): h is HeadshotRecord => h !== undefined);
}
