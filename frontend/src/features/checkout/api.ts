import * as z from 'zod';
import { ApiError, apiFetch } from '../../lib/api';
import type { PackId } from '../pricing/api';

/** `POST /api/checkout/sessions` answer: the Checkout Session id and the hosted payment page to send the browser to. */
export const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  url: z.url({ protocol: /^https?$/ }),
});

/** A freshly created Checkout Session. */
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** Every `status` `GET /api/checkout/sessions/{id}` can report. Only `paid` means the credits were added. */
export const checkoutStatuses = ['paid', 'unpaid', 'expired', 'no_payment_required', 'invalid'] as const;

/** `GET /api/checkout/sessions/{id}` answer. */
export const checkoutVerificationSchema = z.object({
  status: z.enum(checkoutStatuses),
  /** Credits this session added (the pack's credits when `paid`, else 0). */
  creditsAdded: z.number().int().nonnegative(),
  /** The caller's balance afterwards. */
  credits: z.number().int().nonnegative(),
});

/** The verification of a Checkout Session by the API (which also fulfils it, idempotently, when paid). */
export type CheckoutVerification = z.infer<typeof checkoutVerificationSchema>;

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

/**
 * Asks the API whether a Checkout Session was paid (`GET /api/checkout/sessions/{id}`, signed in); a paid session
 * is fulfilled on the way (the webhook may have done it first; either way the credits are added once).
 * @throws {ApiError} 400 for a malformed id, 404 for an unknown or another user's session, 5xx/0 when transient.
 */
export async function verifyCheckoutSession(sessionId: string): Promise<CheckoutVerification> {
  const body = await apiFetch<unknown>(`/checkout/sessions/${encodeURIComponent(sessionId)}`);
  const parsed = checkoutVerificationSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'INVALID_RESPONSE', 'The server sent an unexpected answer. Please try again.');
  }
  return parsed.data;
}

/** react-query key of one session's verification; the user id keeps two accounts' answers apart. */
export function checkoutVerificationQueryKey(userId: string | null | undefined, sessionId: string) {
  return ['checkout-session', userId ?? null, sessionId] as const;
}

/**
 * Whether asking again may help: the server could not be reached (status 0) or answered with a gateway/server
 * error (5xx, e.g. 502 when Stripe is briefly unreachable). A 4xx or a definite status never changes on retry.
 */
export function isTransientError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}
