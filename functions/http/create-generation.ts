import { ulid } from 'ulid';
import * as z from 'zod';
import { startGenerationExecution } from '../adapters/executions';
import { compensateGeneration, newGenerationItem, setExecutionArn } from '../adapters/generations';
import { generationStartGuard } from '../adapters/generation-guard';
import { CreditChangeGuardError, ensureUser, getUser, spendCredits } from '../adapters/ledger';
import { headObject } from '../adapters/storage';
import { GENERATION_COST, InsufficientCreditsError, UserNotFoundError } from '../domain/credits';
import {
  BACKGROUNDS,
  GENERATION_ERROR_MESSAGES,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_FILES,
  PROGRESS,
  STYLES,
} from '../domain/generation';
import { isOwnUploadKey } from '../domain/object-keys';
import { generationInFlight } from '../domain/quotas';
import { logger } from '../common/logger';
import { HttpError } from './errors';
import { callerOf, httpHandler, json, parseBody } from './handler';

/** `POST /api/generations` body. */
export const createGenerationBody = z.object({
  style: z.enum(STYLES),
  background: z.enum(BACKGROUNDS),
  /** Keys from `POST /api/uploads`, in the user's order (the first 3 usable become the references). */
  referenceKeys: z
    .array(z.string().min(1).max(512))
    .min(1, 'Upload at least one photo.')
    .max(MAX_UPLOAD_FILES, `Maximum ${MAX_UPLOAD_FILES} photos allowed.`)
    .refine((keys) => new Set(keys).size === keys.length, 'Each photo may be used only once.'),
});

/** The spec's message (§5) for a balance under the cost, with the balance in credits. */
export function insufficientCredits(balance: number): HttpError {
  return new HttpError(
    402,
    'INSUFFICIENT_CREDITS',
    `Insufficient credits! You need ${GENERATION_COST} credits but only have ${balance}.`,
    { required: GENERATION_COST, credits: balance },
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
 * `POST /api/generations` (jwt) `{ style, background, referenceKeys }` → 202 `{ id, status: 'queued', stage,
 * progress: 5, style, background, creditsReserved: 6, credits, createdAt }` with `Location: /api/generations/{id}`.
 *
 * Checks every key is one of the caller's uploads and exists (nothing is spent otherwise), then in ONE ledger
 * transaction spends 6 credits (ref = the generation id) and creates the generation item, then starts the workflow
 * execution named after the generation id. If the start fails, the generation is compensated at once (all 6
 * credits back, status failed) and the answer is 502.
 *
 * Errors: 400 `VALIDATION_ERROR` (body), 400 `INVALID_REFERENCE` (a key that is not the caller's upload),
 * 400 `UPLOAD_NOT_FOUND` (not uploaded, or expired), 400 `INVALID_UPLOAD` (empty, over 10 MB, not `image/*`),
 * 402 `INSUFFICIENT_CREDITS` ('Insufficient credits! You need 6 credits but only have N.', details
 * `{ required, credits }`), 409 `ACCOUNT_DELETING` (the account's deletion has started), 429 `QUOTA_EXCEEDED` with
 * `Retry-After` while the caller's previous generation is still running (at most one in flight, checked inside the
 * spend transaction), 502 `WORKFLOW_START_FAILED` (credits refunded).
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const { sub } = caller;
  const body = parseBody(event, createGenerationBody);

  body.referenceKeys.forEach((key, i) => {
    // Never says whether another user's key exists: the answer is the same for any foreign or malformed key.
    if (!isOwnUploadKey(sub, key)) {
      throw new HttpError(400, 'INVALID_REFERENCE', `Photo ${i + 1} is not one of your uploads.`);
    }
  });
  const heads = await Promise.all(body.referenceKeys.map((key) => headObject('uploads', key)));
  heads.forEach((head, i) => {
    if (!head) {
      throw new HttpError(
        400,
        'UPLOAD_NOT_FOUND',
        `Photo ${i + 1} has not finished uploading or has expired. Please upload it again.`,
      );
    }
    // An object put past the POST policy (leaked credentials, a misconfigured policy): check size and type again.
    if (head.size < 1 || head.size > MAX_UPLOAD_BYTES || !head.contentType?.startsWith('image/')) {
      throw new HttpError(400, 'INVALID_UPLOAD', `Photo ${i + 1} must be an image file of at most 10 MB.`);
    }
  });

  // The post-confirmation trigger creates users; this covers a user whose trigger did not run (idempotent).
  const user = caller.email ? await ensureUser(sub, caller.email) : await getUser(sub);

  const id = ulid();
  const now = new Date().toISOString();
  let balance: number;
  try {
    ({ balance } = await spendCredits({
      sub,
      amount: GENERATION_COST,
      ref: id,
      ...(await generationStartGuard(user, id, GENERATION_COST)),
      related: {
        item: newGenerationItem({
          id,
          sub,
          style: body.style,
          background: body.background,
          referenceKeys: body.referenceKeys,
          now,
        }),
      },
    }));
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw insufficientCredits(error.balance);
    if (error instanceof UserNotFoundError) throw insufficientCredits(0);
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
      style: body.style,
      background: body.background,
      referenceKeys: body.referenceKeys,
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
      `We couldn't start creating your headshots. Your ${GENERATION_COST} credits have been refunded. Please try again.`,
    );
  }
  // Informative only (the reconciliation derives the ARN from the id): a failure here must not fail the request.
  await setExecutionArn(sub, id, executionArn).catch((error: unknown) =>
    logger.warn('Could not record the execution ARN', { generationId: id, error: error as Error }),
  );

  return json(
    202,
    {
      id,
      status: 'queued',
      stage: 'queued',
      progress: PROGRESS.queued,
      style: body.style,
      background: body.background,
      creditsReserved: GENERATION_COST,
      credits: balance,
      createdAt: now,
    },
    { location: `/api/generations/${id}` },
  );
});
