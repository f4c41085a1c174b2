import { checkoutSessionSchema, type CheckoutSession } from '../../../../functions/contracts/account';
import { ApiError, apiFetch } from '../api-client';
import type { PackId } from './get-packs';

export type { CheckoutSession };

/** What the API accepts as `Idempotency-Key`: 8-128 of `[A-Za-z0-9_-]`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * A new `Idempotency-Key` for one purchase click: a random UUID, or 32 random hex digits where
 * `crypto.randomUUID` is unavailable (it needs a secure context, which plain-http LAN addresses are not).
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Creates a Stripe Checkout Session for one credit pack (`POST /api/checkout/sessions`, signed in). The server
 * decides the price from its own pack list; only the pack id is sent. One `idempotencyKey` per click makes an
 * accidental resend return the same session.
 * @throws {ApiError} on any failure, including an answer without a usable `url`.
 */
export async function createCheckoutSession(
  packId: PackId,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<CheckoutSession> {
  const body = await apiFetch<unknown>('/checkout/sessions', {
    method: 'POST',
    body: { packId },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  const parsed = checkoutSessionSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'INVALID_RESPONSE', 'The server sent an unexpected answer. Please try again.');
  }
  return parsed.data;
}
