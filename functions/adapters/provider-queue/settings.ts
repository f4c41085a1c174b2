import { generationSettings } from '../../config/generation';
import { imageProviderSettings } from '../../config/image-provider';
import { storageSettings } from '../../config/storage';
import { providerTimeouts } from '../../domain/provider-timeouts';
import { leaseMsFor, type QueueLimits } from '../../domain/provider-queue';
import type { StandingRules } from '../../domain/provider-queue-standing';

/**
 * Where the provider queue lives in the table and how fast it lets calls through (docs/architecture.md §2, §4).
 * Separate partitions per provider endpoint, so no partition carries more than its share (decision 010): the
 * queue's one state item, its tickets, the leases, the place entries, and one per level of position counters.
 */

/**
 * The queue's base key: one queue per provider endpoint, since each has its own limits — `ADMISSION#local`, or
 * `ADMISSION#openai#<base URL>` (OpenAI's own unless OPENAI_BASE_URL points elsewhere). The prefix is stored data: it
 * stays `ADMISSION`.
 */
export function queueBase(): string {
  const config = imageProviderSettings();
  return config.IMAGE_PROVIDER === 'openai'
    ? `ADMISSION#openai#${config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'}`
    : 'ADMISSION#local';
}

/**
 * The partition keys: `STATE` holds the state item, `LINE` the tickets, `LEASE` the leases, `PLACE` the counters,
 * `ASIDE` the tickets the table refused to admit (adapters/provider-queue/tickets.ts `setTicketAside`).
 */
export function queuePk(part: 'STATE' | 'LINE' | 'LEASE' | 'PLACE' | 'ASIDE'): string {
  return part === 'STATE' ? queueBase() : `${queueBase()}#${part}`;
}

/** The partition of the position counters of one level (domain/provider-queue-positions.ts `PLACE_LEVELS_MS`). */
export function counterPk(levelMs: number): string {
  return `${queuePk('PLACE')}#${levelMs}`;
}

/** The state item's sort key. */
export const STATE_SK = 'STATE';

/** The table's name. */
export const table = (): string => storageSettings().TABLE_NAME;

/**
 * The limits from config: PROVIDER_IMAGES_PER_MINUTE, PROVIDER_MAX_CONCURRENCY, PROVIDER_MAX_PAUSE_SECONDS, and the
 * lease length the provider-call Task needs (OPENAI_IMAGE_MODEL, OPENAI_IMAGE_QUALITY, OPENAI_TIMEOUT_SECONDS).
 */
export function queueLimits(): QueueLimits {
  const config = imageProviderSettings();
  const slot = providerTimeouts(
    config.OPENAI_IMAGE_MODEL,
    config.OPENAI_IMAGE_QUALITY,
    config.OPENAI_TIMEOUT_SECONDS,
  );
  return {
    imagesPerMinute: config.PROVIDER_IMAGES_PER_MINUTE,
    maxConcurrency: config.PROVIDER_MAX_CONCURRENCY,
    leaseMs: leaseMsFor(slot),
    maxPauseMs: config.PROVIDER_MAX_PAUSE_SECONDS * 1000,
  };
}

/** PROVIDER_PRIORITY_HEAD_START_SECONDS in ms. */
export const headStartMs = (): number => imageProviderSettings().PROVIDER_PRIORITY_HEAD_START_SECONDS * 1000;

/** PROVIDER_FREE_SHARE: the free lane's share of the admissions while paid work waits (0-1). */
export const freeShare = (): number => imageProviderSettings().PROVIDER_FREE_SHARE;

/** What makes a purchase count as paid: PROVIDER_PAID_MIN_CENTS and PROVIDER_PAID_MAX_REFUNDED_SHARE. */
export function standingRules(): StandingRules {
  const config = imageProviderSettings();
  return {
    minPaidCents: config.PROVIDER_PAID_MIN_CENTS,
    maxRefundedShare: config.PROVIDER_PAID_MAX_REFUNDED_SHARE,
  };
}

/** GENERATION_DEADLINE_MINUTES in ms. */
export const deadlineMs = (): number => generationSettings().GENERATION_DEADLINE_MINUTES * 60_000;

/** The table's TTL attribute (`expiresAt`, epoch seconds) for an item that may go `afterMs` past `at` (epoch ms). */
export function expiresAt(at: number, afterMs: number): number {
  return Math.ceil((at + afterMs) / 1000) + 3_600;
}
