import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { GENERATION_COST } from '../domain/credits';
import {
  GenerationClosedError,
  GenerationNotFoundError,
  type GenerationError,
} from '../domain/generation-errors';
import {
  isTerminal,
  PROGRESS,
  type GenerationStage,
  type GenerationStatus,
} from '../domain/generation-status';
import { type Background, type Style } from '../domain/styles';
import { type PhotoProblem } from '../domain/photos';
import type { GenerationRecord } from '../domain/generation-record';
import { documentClient } from './support/aws';
import { generationSk, userPk } from './support/keys';
import type { TransactItem } from './support/ledger-items';
import { batchDelete, queryAll } from './support/query';

/**
 * The generation items (docs/architecture.md §2) and the state changes the API and the workflow make to them. A slot
 * saves its headshot (adapters/headshots/records.ts) only while `closedAt` is absent; closing and refunding are the
 * use case functions/use-cases/compensate-generation.ts.
 */

/** The generation item as the code sees it (domain/generation-record.ts). */
export type { GenerationRecord };

const table = () => storageSettings().TABLE_NAME;
const key = (sub: string, id: string) => ({ PK: userPk(sub), SK: generationSk(id) });

function toRecord(item: Record<string, unknown>): GenerationRecord {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return { slots: {}, imagesSaved: 0, creditsRefunded: 0, ...rest } as GenerationRecord;
}

/** The fields a new generation item carries only when they apply (their meaning: {@link GenerationRecord}). */
type OptionalStart = Partial<
  Pick<
    GenerationRecord,
    | 'slotCount'
    | 'resolution'
    | 'regeneratedFrom'
    | 'edit'
    | 'referenceSetHash'
    | 'safetyIdentifier'
    | 'outfit'
    | 'variation'
    | 'payer'
    | 'backgroundColour'
  >
>;

/**
 * The new generation item (status `queued`, stage `queued`, progress 5), with PK/SK, for the ledger transaction
 * that spends its credits (`spendCredits({ related: { item } })`), so both exist or neither does. `slotCount` is 1
 * for a regeneration of `regeneratedFrom` (absent: the usual 6); `creditsReserved` defaults to one per slot.
 */
export function newGenerationItem(
  input: {
    id: string;
    sub: string;
    style: Style;
    background: Background;
    referenceKeys: string[];
    now: string;
    creditsReserved?: number;
  } & OptionalStart,
): Record<string, unknown> {
  const { sub, now, creditsReserved, ...fields } = input;
  return {
    ...key(sub, input.id),
    type: 'generation',
    userId: sub,
    status: 'queued',
    stage: 'queued',
    progress: PROGRESS.queued,
    creditsReserved: creditsReserved ?? fields.slotCount ?? GENERATION_COST,
    // id, style, background, referenceKeys, and the optional fields that apply.
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    creditsRefunded: 0,
    imagesSaved: 0,
    slots: {},
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A new generation item as a transaction item of its own (new only), for a spend whose ledger is not its owner's (a
 * team-paid generation: the item lives under the member, the credits move under the team).
 */
export function generationItemPut(item: Record<string, unknown>): TransactItem {
  return { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(SK)' } };
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
  /** The model that made `referenceDescriptor`. */
  referenceDescriptorModel?: string;
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
  const fields = Object.fromEntries(Object.entries(step).filter(([, value]) => value !== undefined));
  if (await update(sub, id, fields, { ConditionExpression: 'attribute_not_exists(closedAt)' })) return;
  const current = await requireGeneration(sub, id);
  throw new GenerationClosedError(`Generation ${id} is closed (${current.status})`);
}

/**
 * Replaces the customer's reference descriptor by one of another model (a generation prepared before the model
 * changed, recomputed from its references by FinishHeadshot), while the generation is open. A closed generation
 * is left as it is: nothing measures likeness for it any more.
 */
export async function saveReferenceDescriptor(
  sub: string,
  id: string,
  descriptor: { referenceDescriptor: string; referenceDescriptorModel: string },
): Promise<void> {
  await update(sub, id, descriptor, { ConditionExpression: 'attribute_not_exists(closedAt)' });
}

/**
 * Sets one attribute of an existing generation without touching `updatedAt` (which says when the generation itself
 * last changed: the reconciliation reads it), under `condition` (ANDed with the item's existence).
 *
 * @returns false when the condition failed
 */
async function setAttribute(
  sub: string,
  id: string,
  name: 'executionArn' | 'checkedAt' | 'notifiedAt',
  value: string,
  condition?: string,
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(sub, id),
        UpdateExpression: `SET ${name} = :value`,
        ConditionExpression: condition ? `attribute_exists(SK) AND ${condition}` : 'attribute_exists(SK)',
        ExpressionAttributeValues: { ':value': value },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Sets the execution ARN once StartExecution answered (no condition: it is only informative). */
export async function setExecutionArn(sub: string, id: string, executionArn: string): Promise<void> {
  await setAttribute(sub, id, 'executionArn', executionArn);
}

/**
 * Claims the generation's one "ready" e-mail (`notifiedAt`, set once; docs/architecture.md §8 "Mail"): the claim is
 * made before the mail is sent, so two runs of NotifyCustomer never both send.
 *
 * @returns true when this call claimed it; false when it was claimed before (or the generation is gone)
 */
export function claimReadyMail(sub: string, id: string, now = new Date()): Promise<boolean> {
  return setAttribute(sub, id, 'notifiedAt', now.toISOString(), 'attribute_not_exists(notifiedAt)');
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

/** Records how many credits were given back (one per slot without a headshot, once closed). */
export async function setCreditsRefunded(sub: string, id: string, creditsRefunded: number): Promise<void> {
  await update(sub, id, { creditsRefunded });
}

/**
 * Ends a closed generation that delivered: `succeeded` or `partial` (decided by the caller), stage `done`, progress
 * 100, with `error` saying why a partial one stopped when the caller knows. Never overwrites a terminal status.
 *
 * @returns the completion time (ISO 8601)
 */
export async function markFinished(
  sub: string,
  id: string,
  status: 'succeeded' | 'partial',
  error?: GenerationError,
): Promise<string> {
  const now = new Date().toISOString();
  const fields = { status, stage: 'done', progress: PROGRESS.done, completedAt: now };
  await update(sub, id, error ? { ...fields, error } : fields, NOT_TERMINAL);
  return now;
}

/**
 * Ends a generation that could not finish: `failed` (stage `failed`) when it saved nothing, else `partial` with the
 * headshots it has — in both cases with `error` saying why. Never overwrites a terminal status. Call after
 * the refund of its undelivered slots (functions/use-cases/compensate-generation.ts).
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

/** Every generation of `sub` with its `id`, `status` and `createdAt` (and its table key), for deleting them all. */
export async function listGenerationSummaries(
  sub: string,
): Promise<{ PK: string; SK: string; id: string; status: GenerationStatus; createdAt: string }[]> {
  const items = await queryAll({
    KeyConditionExpression: '#PK = :pk AND begins_with(#SK, :prefix)',
    ProjectionExpression: '#PK, #SK, #id, #status, #createdAt',
    ExpressionAttributeNames: {
      '#PK': 'PK',
      '#SK': 'SK',
      '#id': 'id',
      '#status': 'status',
      '#createdAt': 'createdAt',
    },
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': generationSk('') },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    PK: String(item.PK),
    SK: String(item.SK),
    id: String(item.id),
    status: item.status as GenerationStatus,
    createdAt: String(item.createdAt),
  }));
}

/** Notes that the generation's execution was checked now (`checkedAt`, epoch ms → ISO 8601): see the reconciliation. */
export async function setCheckedAt(sub: string, id: string, now: number): Promise<void> {
  await setAttribute(sub, id, 'checkedAt', new Date(now).toISOString());
}

/** Deletes generation items by key (BatchWriteItem; a retry finishes a partial run). */
export async function deleteGenerationItems(keys: readonly { PK: string; SK: string }[]): Promise<void> {
  await batchDelete(keys);
}

/** Deletes one generation item of `sub` (nothing happens when it is already gone). */
export async function deleteGeneration(sub: string, id: string): Promise<void> {
  await batchDelete([key(sub, id)]);
}
