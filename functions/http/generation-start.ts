import { ulid } from 'ulid';
import { startGenerationExecution } from '../adapters/executions';
import { compensateGeneration, newGenerationItem, setExecutionArn } from '../adapters/generations';
import { generationStartGuard } from '../adapters/generation-guard';
import { sweepMarkerPut } from '../adapters/sweeper';
import { CreditChangeGuardError, ensureUser, getUser, spendCredits } from '../adapters/ledger';
import { headObject } from '../adapters/storage';
import { GENERATION_COST, InsufficientCreditsError, UserNotFoundError } from '../domain/credits';
import {
  GENERATION_ERROR_MESSAGES,
  MAX_UPLOAD_BYTES,
  PROGRESS,
  type Background,
  type Style,
} from '../domain/generation';
import { generationInFlight } from '../domain/quotas';
import { logger } from '../common/logger';
import type { GenerationStarted } from '../contracts';
import { HttpError } from './errors';
import { json, type Caller, type HttpResult } from './handler';

/**
 * Starting a generation, shared by `POST /api/generations` (6 slots) and `POST /api/headshots/{id}/regenerate`
 * (1 slot): the same spend, the same guard, the same workflow (docs/architecture.md §4).
 */

/** The spec's message (docs/product-spec.md §5) for a balance under the cost, with the balance in credits. */
export function insufficientCredits(balance: number, required: number = GENERATION_COST): HttpError {
  return new HttpError(
    402,
    'INSUFFICIENT_CREDITS',
    `Insufficient credits! You need ${required} credits but only have ${balance}.`,
    { required, credits: balance },
  );
}

/** The 409 for a generation asked for while the account is being deleted. */
export function accountDeleting(): HttpError {
  return new HttpError(
    409,
    'ACCOUNT_DELETING',
    'Your account is being deleted, so no new headshots can be created.',
  );
}

/**
 * Checks that every reference key is still stored and is an image of at most 10 MB (an object put past the POST
 * policy — leaked credentials, a misconfigured policy — is checked again here).
 *
 * @throws {HttpError} 400 `UPLOAD_NOT_FOUND` / `INVALID_UPLOAD` naming the photo (1-based)
 */
export async function assertReferencesStored(referenceKeys: readonly string[]): Promise<void> {
  const heads = await Promise.all(referenceKeys.map((key) => headObject('uploads', key)));
  heads.forEach((head, i) => {
    if (!head) {
      throw new HttpError(
        400,
        'UPLOAD_NOT_FOUND',
        `Photo ${i + 1} has not finished uploading or has expired. Please upload it again.`,
      );
    }
    if (head.size < 1 || head.size > MAX_UPLOAD_BYTES || !head.contentType?.startsWith('image/')) {
      throw new HttpError(400, 'INVALID_UPLOAD', `Photo ${i + 1} must be an image file of at most 10 MB.`);
    }
  });
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
}

/**
 * In ONE ledger transaction spends one credit per slot (ref = the generation id; at most one generation in flight
 * per user) and creates the generation item, then starts the workflow execution named after the generation id. If
 * the start fails, the generation is compensated at once (every credit back, status failed).
 *
 * @returns the 202 answer `{ id, status: 'queued', stage, progress: 5, style, background, creditsReserved, credits,
 *   createdAt }` with `Location: /api/generations/{id}`
 * @throws {HttpError} 402 `INSUFFICIENT_CREDITS`, 409 `ACCOUNT_DELETING`, 502 `WORKFLOW_START_FAILED`;
 *   `QuotaExceededError` (429) while another generation of the caller is running
 */
export async function startGeneration(caller: Caller, request: GenerationRequest): Promise<HttpResult> {
  const { sub } = caller;
  const cost = request.slots?.length ?? GENERATION_COST;
  // The post-confirmation trigger creates users; this covers a user whose trigger did not run (idempotent).
  const user = caller.email ? await ensureUser(sub, caller.email) : await getUser(sub);

  const id = ulid();
  const now = new Date().toISOString();
  let balance: number;
  // The guard (one generation in flight, no deletion in progress) and the sweeper's marker commit with the spend.
  const guard = await generationStartGuard(user, id, cost);
  try {
    ({ balance } = await spendCredits({
      sub,
      amount: cost,
      ref: id,
      ...guard,
      extraItems: [...(guard.extraItems ?? []), sweepMarkerPut(sub, id, now)],
      related: {
        item: newGenerationItem({
          id,
          sub,
          style: request.style,
          background: request.background,
          referenceKeys: request.referenceKeys,
          now,
          ...(request.slots ? { slotCount: request.slots.length } : {}),
          ...(request.regeneratedFrom ? { regeneratedFrom: request.regeneratedFrom } : {}),
        }),
      },
    }));
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw insufficientCredits(error.balance, cost);
    if (error instanceof UserNotFoundError) throw insufficientCredits(0, cost);
    if (error instanceof CreditChangeGuardError) {
      if (error.user?.deletingAt) throw accountDeleting();
      throw generationInFlight();
    }
    throw error;
  }

  let executionArn: string;
  try {
    executionArn = await startGenerationExecution({
      generationId: id,
      userId: sub,
      style: request.style,
      background: request.background,
      referenceKeys: request.referenceKeys,
      ...(request.slots ? { slots: request.slots } : {}),
    });
  } catch (error) {
    logger.error('StartExecution failed; refunding the generation', {
      generationId: id,
      error: error as Error,
    });
    await compensateGeneration(sub, id, {
      code: 'START_FAILED',
      message: GENERATION_ERROR_MESSAGES.START_FAILED,
    });
    throw new HttpError(
      502,
      'WORKFLOW_START_FAILED',
      `We couldn't start creating your headshots. Your ${cost} ${cost === 1 ? 'credit has' : 'credits have'} been refunded. Please try again.`,
    );
  }
  // Informative only (the reconciliation derives the ARN from the id): a failure here must not fail the request.
  await setExecutionArn(sub, id, executionArn).catch((error: unknown) =>
    logger.warn('Could not record the execution ARN', { generationId: id, error: error as Error }),
  );

  return json<GenerationStarted>(
    202,
    {
      id,
      status: 'queued',
      stage: 'queued',
      progress: PROGRESS.queued,
      style: request.style,
      background: request.background,
      creditsReserved: cost,
      credits: balance,
      createdAt: now,
    },
    { location: `/api/generations/${id}` },
  );
}
