/*
 * SUPERSEDED by functions/adapters/provider-queue/ (docs/decisions/010-provider-queue.md): no handler uses this module.
 * It stays only until test/bench/queue-cost.ts, which measures the old design beside the new one, is switched over;
 * then it and the polling rules of domain/admission.ts are deleted.
 */
import {
  DeleteCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { generationSettings } from '../config/generation';
import { imageProviderSettings } from '../config/image-provider';
import { storageSettings } from '../config/storage';
import {
  admit,
  deadlineOf,
  etaMs,
  initialState,
  LEASE_MS,
  liveLeases,
  mayAdmit,
  permitCheckMs,
  pollDelayMs,
  release,
  ticketSortKey,
  TICKET_STALE_MS,
  type AdmissionLimits,
  type AdmissionState,
  type TicketPriority,
} from '../domain/admission';
import { grantsPriority } from '../domain/packs';
import { providerTimeouts } from '../domain/provider-timeouts';
import { logger } from '../common/logger';
import { documentClient } from './aws';
import { generationSk, userPk } from './keys';
import { queryAll, queryPages } from './support/query';
import { cancellationCodes } from './transactions';

/**
 * The provider admission point in DynamoDB (docs/architecture.md §2, §4): one state item
 * (`PK ADMISSION#<provider>`, `SK STATE`: token bucket, leases, pause, average call time, version) and one ticket per
 * waiting slot (`SK TICKET#<class>#<round>#<generationId>#<slot>`), so a Query of the partition returns the
 * line in order. Every change of the state item is a conditional write on its `version` (optimistic locking), and
 * admitting a ticket deletes it in the same transaction: no two calls can take the same token or permit.
 */

const STATE_SK = 'STATE';

/**
 * The partition of the line: one per provider endpoint, since each has its own limits — `ADMISSION#local`, or
 * `ADMISSION#openai#<base URL>` (OpenAI's own unless OPENAI_BASE_URL points elsewhere).
 */
export function admissionPk(): string {
  const config = imageProviderSettings();
  return config.IMAGE_PROVIDER === 'openai'
    ? `ADMISSION#openai#${config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'}`
    : 'ADMISSION#local';
}

/** One UpdateItem of an item of the admission partition (the line's state or a ticket). */
function updateAdmissionItem(sk: string, input: Omit<UpdateCommandInput, 'TableName' | 'Key'>) {
  return documentClient().send(
    new UpdateCommand({ TableName: table(), Key: { PK: admissionPk(), SK: sk }, ...input }),
  );
}

/** No call of the generation may start any more: its deadline passed. The slot is refunded. */
export class AdmissionDeadlineError extends Error {
  override readonly name = 'AdmissionDeadlineError';
}

/**
 * The limits from config (`PROVIDER_IMAGES_PER_MINUTE`, `PROVIDER_MAX_CONCURRENCY`), and the lease length the slot's
 * timeout needs (OPENAI_IMAGE_MODEL, OPENAI_IMAGE_QUALITY, OPENAI_TIMEOUT_SECONDS).
 */
export function configuredLimits(): AdmissionLimits {
  const config = imageProviderSettings();
  const slot = providerTimeouts(
    config.OPENAI_IMAGE_MODEL,
    config.OPENAI_IMAGE_QUALITY,
    config.OPENAI_TIMEOUT_SECONDS,
  );
  return {
    imagesPerMinute: config.PROVIDER_IMAGES_PER_MINUTE,
    maxConcurrency: config.PROVIDER_MAX_CONCURRENCY,
    // A lease outlives the slot's two Tasks (the slowest call, then its finishing) by half a minute.
    leaseMs: Math.max(LEASE_MS, (slot.slotSeconds + 30) * 1000),
  };
}

const table = () => storageSettings().TABLE_NAME;

/** Reads the state item (strongly consistent); a fresh one when it does not exist yet. */
export async function readAdmissionState(limits: AdmissionLimits, now: number): Promise<AdmissionState> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: { PK: admissionPk(), SK: STATE_SK }, ConsistentRead: true }),
  );
  if (!Item) return initialState(limits, now);
  const { PK: _pk, SK: _sk, ...state } = Item;
  return state as AdmissionState;
}

/** The write of `next` over `previous`, conditional on nobody having written in between. */
function stateWrite(previous: AdmissionState, next: AdmissionState) {
  return {
    TableName: table(),
    Item: { PK: admissionPk(), SK: STATE_SK, ...next },
    ConditionExpression: previous.version === 0 ? 'attribute_not_exists(SK)' : 'version = :version',
    ...(previous.version === 0 ? {} : { ExpressionAttributeValues: { ':version': previous.version } }),
  };
}

interface TicketAhead {
  SK: string;
  generationId: string;
  seenAt: number;
}

/** Live tickets ahead of `sortKey`, in line order; stale ones (their execution ended) are deleted on the way. */
async function ticketsAhead(sortKey: string, now: number): Promise<TicketAhead[]> {
  const tickets = (await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': admissionPk(), ':from': 'TICKET#', ':to': sortKey },
    ProjectionExpression: 'SK, generationId, seenAt',
    ConsistentRead: true,
  })) as unknown as TicketAhead[];
  const stale = tickets.filter((t) => t.SK !== sortKey && now - t.seenAt > TICKET_STALE_MS);
  await Promise.all(
    stale.map((t) =>
      documentClient()
        .send(
          new DeleteCommand({
            TableName: table(),
            Key: { PK: admissionPk(), SK: t.SK },
            ConditionExpression: 'seenAt = :seen',
            ExpressionAttributeValues: { ':seen': t.seenAt },
          }),
        )
        .catch(() => undefined),
    ),
  );
  return tickets.filter((t) => t.SK !== sortKey && now - t.seenAt <= TICKET_STALE_MS);
}

/** What one slot asks the admission point. */
export interface AcquireRequest {
  generationId: string;
  userId: string;
  slot: number;
  /** The slot's index in its generation's list of slots (generations interleave by it). */
  round: number;
  priority: TicketPriority;
  /** When the generation's execution started (ISO 8601): its deadline counts from here. */
  startedAt: string;
}

/** The answer: admitted with a lease, or when to ask again and the generation's place in line. */
export type AcquireResult =
  | { granted: true; leaseId: string; retryAt: string; position: 0; etaSeconds: 0 }
  | { granted: false; leaseId: null; retryAt: string; position: number; etaSeconds: number };

/**
 * One try of a slot to be admitted. Puts (or refreshes) the slot's ticket, then admits it when fewer live tickets are
 * ahead of it than there are tokens and free permits; otherwise answers when to try again (its estimated turn) and
 * records the generation's place in line on the generation item. Returns at once: nobody waits in a Lambda.
 *
 * @param now epoch ms (tests)
 * @throws {AdmissionDeadlineError} when the generation's deadline (`GENERATION_DEADLINE_MINUTES` after its start) has
 *   passed; its ticket is removed
 */
export async function acquireSlot(request: AcquireRequest, now = Date.now()): Promise<AcquireResult> {
  const limits = configuredLimits();
  const deadline = deadlineOf(request.startedAt, generationSettings().GENERATION_DEADLINE_MINUTES);
  const sortKey = ticketSortKey(request);
  if (now >= deadline) {
    await documentClient().send(
      new DeleteCommand({ TableName: table(), Key: { PK: admissionPk(), SK: sortKey } }),
    );
    throw new AdmissionDeadlineError(
      `Generation ${request.generationId} passed its deadline before slot ${request.slot} could be generated`,
    );
  }
  await updateAdmissionItem(sortKey, {
    UpdateExpression:
      'SET generationId = :g, userId = :u, slot = :s, seenAt = :now, enqueuedAt = if_not_exists(enqueuedAt, :now)',
    ExpressionAttributeValues: {
      ':g': request.generationId,
      ':u': request.userId,
      ':s': request.slot,
      ':now': now,
    },
  });
  // The generation item's place in line is written in the admitting transaction itself (one round trip less
  // between the admission and the provider call); only when that item is gone is the slot admitted without it.
  let withPlace = true;
  for (let attempt = 0; ; attempt++) {
    const [state, ahead] = await Promise.all([readAdmissionState(limits, now), ticketsAhead(sortKey, now)]);
    const rank = ahead.length;
    if (mayAdmit(state, limits, rank, now) && attempt < 8) {
      const leaseId = randomUUID();
      try {
        await documentClient().send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: stateWrite(state, admit(state, limits, leaseId, request.generationId, now)) },
              { Delete: { TableName: table(), Key: { PK: admissionPk(), SK: sortKey } } },
              ...(withPlace ? [{ Update: placeUpdate(request, 0, 0, now) }] : []),
            ],
          }),
        );
        return { granted: true, leaseId, retryAt: new Date(now).toISOString(), position: 0, etaSeconds: 0 };
      } catch (error) {
        const codes = cancellationCodes(error);
        if (!codes && (error as Error).name !== 'TransactionConflictException') throw error;
        if (codes?.[2] === 'ConditionalCheckFailed') withPlace = false;
        // Another slot changed the state first (or the generation item is gone): read again and re-decide.
        now = Math.max(now, Date.now());
        continue;
      }
    }
    const eta = etaMs(state, limits, rank, now);
    const holders = liveLeases(state, now).map(([, l]) => l.generationId);
    const others = new Set([...ahead.map((t) => t.generationId), ...holders]);
    others.delete(request.generationId);
    // Place in line: 1 = next up (nobody ahead, waiting only for capacity), k = k - 1 generations ahead.
    const position = others.size + 1;
    const etaSeconds = Math.ceil(eta / 1000);
    await recordPlace(request, position, etaSeconds, now);
    return {
      granted: false,
      leaseId: null,
      // From the clock at answering time: the reads above took a while, and the Wait counts from now.
      retryAt: new Date(
        Math.max(now, Date.now()) + pollDelayMs(eta, Math.random(), permitCheckMs(state, limits, rank, now)),
      ).toISOString(),
      position,
      etaSeconds,
    };
  }
}

/** Removes a slot's ticket (a slot that will not be generated): nobody waits behind it any more. Idempotent. */
export async function leaveLine(request: AcquireRequest): Promise<void> {
  await documentClient().send(
    new DeleteCommand({ TableName: table(), Key: { PK: admissionPk(), SK: ticketSortKey(request) } }),
  );
}

/**
 * The update of the generation's place in line (`queue: { position, etaSeconds, at }`) for
 * `GET /api/generations/{id}`. Position 0 (a slot was admitted) also sets `admittedAt` once, and from then on a
 * waiting slot no longer reports a place: the customer's generation is running. Conditional on the generation item
 * existing (and, for a waiting slot, on no slot having been admitted yet).
 */
function placeUpdate(request: AcquireRequest, position: number, etaSeconds: number, now: number) {
  const admitted = position === 0;
  return {
    TableName: table(),
    Key: { PK: userPk(request.userId), SK: generationSk(request.generationId) },
    UpdateExpression: admitted
      ? 'SET #queue = :queue, admittedAt = if_not_exists(admittedAt, :at)'
      : 'SET #queue = :queue',
    ConditionExpression: admitted
      ? 'attribute_exists(SK)'
      : 'attribute_exists(SK) AND attribute_not_exists(admittedAt)',
    ExpressionAttributeNames: { '#queue': 'queue' },
    ExpressionAttributeValues: {
      ':queue': { position, etaSeconds, at: new Date(now).toISOString() },
      ...(admitted ? { ':at': new Date(now).toISOString() } : {}),
    },
  };
}

/**
 * Writes a waiting slot's place in line (see {@link placeUpdate}). Best effort: a failed write never blocks the
 * slot.
 */
async function recordPlace(request: AcquireRequest, position: number, etaSeconds: number, now: number) {
  await documentClient()
    .send(new UpdateCommand(placeUpdate(request, position, etaSeconds, now)))
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException')
        logger.warn('Could not record the place in line', {
          generationId: request.generationId,
          error: error as Error,
        });
    });
}

/**
 * Ends a call's hold on the provider: removes its lease (idempotent: an expired or released lease is simply gone),
 * feeds its duration into the average, and after a 429 (`throttleMs`) pauses every admission for that long.
 *
 * @param now epoch ms (tests)
 */
export async function releaseSlot(leaseId: string, throttleMs?: number, now = Date.now()): Promise<void> {
  const limits = configuredLimits();
  for (let attempt = 0; attempt < 20; attempt++) {
    const state = await readAdmissionState(limits, now);
    if (!state.leases[leaseId] && throttleMs === undefined) return;
    try {
      const { ConditionExpression, ExpressionAttributeValues, Item } = stateWrite(
        state,
        release(state, limits, leaseId, now, throttleMs),
      );
      await updateAdmissionItem(STATE_SK, {
        UpdateExpression:
          'SET leases = :leases, tokens = :tokens, refilledAt = :refilledAt, pausedUntil = :pausedUntil, avgCallMs = :avg, calls = :calls, version = :next',
        ConditionExpression,
        ExpressionAttributeValues: {
          ...ExpressionAttributeValues,
          ':leases': Item.leases,
          ':tokens': Item.tokens,
          ':refilledAt': Item.refilledAt,
          ':pausedUntil': Item.pausedUntil,
          ':avg': Item.avgCallMs,
          ':calls': Item.calls,
          ':next': Item.version,
        },
      });
      return;
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      now = Math.max(now, Date.now());
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));
    }
  }
  throw new Error(`Could not release lease ${leaseId}: the admission state kept changing`);
}

/**
 * Whether the customer's generations go first: they have bought a pack whose features include "Priority generation"
 * (Popular or Pro, docs/product-spec.md) — read from their purchase items.
 */
export async function priorityOf(sub: string): Promise<TicketPriority> {
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :purchase)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':purchase': 'PURCHASE#' },
    ProjectionExpression: 'packId',
  })) {
    if ((page.Items ?? []).some((item) => grantsPriority(String(item.packId)))) return 'priority';
  }
  return 'standard';
}
