import { findPack, type CreditPack } from './packs';

/**
 * Checkout rules (docs/product-spec.md §2 Pricing + Payment result page, §4, §7; docs/architecture.md §2-§3), free of I/O so they are unit
 * tested on their own. Money is always in the currency's minor unit (USD cents); credits are whole numbers.
 *
 * The anchor is Stripe's "Fulfill orders" guide (https://docs.stripe.com/checkout/fulfillment): one idempotent
 * fulfilment function called from both the webhook and the success page, fed by a freshly retrieved Checkout
 * Session, and never by anything the browser says.
 */

/**
 * A Checkout Session id as Stripe issues them (`cs_test_…`, `cs_live_…`). Checked before any call to Stripe so a
 * path parameter can never smuggle a different API path or query.
 */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,250}$/;

/** True when `id` looks like a Checkout Session id (see {@link CHECKOUT_SESSION_ID_PATTERN}). */
export function isCheckoutSessionId(id: string | undefined): id is string {
  return typeof id === 'string' && CHECKOUT_SESSION_ID_PATTERN.test(id);
}

/** The line item name of a pack (docs/product-spec.md §7): `'{credits} AI Headshot Credits'`, e.g. `'60 AI Headshot Credits'`. */
export function lineItemName(pack: CreditPack): string {
  return `${pack.credits} AI Headshot Credits`;
}

/** The line item description shown on the hosted checkout page, e.g. `'Popular Pack: 60 professional AI headshots…'`. */
export function lineItemDescription(pack: CreditPack): string {
  return `${pack.name}: ${pack.credits} professional AI headshots. 1 credit = 1 headshot; credits never expire.`;
}

/**
 * The metadata every session carries (docs/product-spec.md §7 plus `pack_id`). Stripe metadata values are strings; amounts are
 * cents. Written only by our server with our secret key, so the browser can never change it.
 */
export type CheckoutMetadata = {
  user_id: string;
  /** `team-seats` for a team's seat purchase (domain/team-checkout.ts), else the pack's id. */
  pack_id: string;
  /** Credits of the pack, as a decimal string. */
  credits: string;
  /** Price in cents, as a decimal string (docs/product-spec.md §9: "sent and stored in minor units"). */
  amount: string;
  package_name: string;
  user_email?: string;
  /** A team's seat purchase: the team whose ledger it fills (docs/teams.md "Money"). */
  team_id?: string;
  /** A team's seat purchase: the seats (the line item's quantity), as a decimal string. */
  seats?: string;
};

/**
 * The parameters of `POST /v1/checkout/sessions` for one pack, shaped like the SDK's `Checkout.SessionCreateParams`
 * (structurally compatible, kept here without the SDK's types so the rule stays pure).
 *
 * Card only: API version `2026-09-30.endive` removed `payment_method_types` from Checkout Session creation; its
 * replacement is `allowed_payment_method_types` (stripe-node 23.0.0 changelog).
 */
export interface CheckoutSessionParams {
  mode: 'payment';
  allowed_payment_method_types: ['card'];
  line_items: [
    {
      price_data: {
        currency: 'usd';
        /** Cents: the pack's `priceCents` (price × 100), or one seat's price. */
        unit_amount: number;
        product_data: { name: string; description: string };
      };
      /** 1 for a pack; the seats of a team's seat purchase (decided on the server, never adjustable in Checkout). */
      quantity: number;
    },
  ];
  success_url: string;
  cancel_url: string;
  customer_email?: string;
  client_reference_id: string;
  metadata: CheckoutMetadata;
  /** Packs take promotion codes; seat purchases do not (seats come only from payments: docs/teams.md "Money"). */
  allow_promotion_codes?: true;
}

/**
 * Builds the Checkout Session for `pack` bought by `sub` (docs/product-spec.md §7 "Checkout creation"). Price and credits come only
 * from the server's pack; return URLs from the configured site origin:
 * - success: `{origin}/success?session_id={CHECKOUT_SESSION_ID}&redirect=dashboard` (Stripe fills the template
 *   variable; "Customize redirect behavior" guide);
 * - cancel: `{origin}/checkout/cancelled?pack={packId}`, where the SPA says nothing was charged and offers the same
 *   pack again (issue 27 "Money that reads right"; the pack is ours to name, the session id is not known yet).
 *
 * @param siteOrigin e.g. `http://localhost:5173` (a trailing slash is tolerated)
 * @param email the buyer's e-mail; omitted from the session when unknown (Checkout then asks for it)
 */
export function buildCheckoutSessionParams(input: {
  pack: CreditPack;
  sub: string;
  email: string | undefined;
  siteOrigin: string;
}): CheckoutSessionParams {
  const { pack, sub, email } = input;
  const origin = input.siteOrigin.replace(/\/+$/, '');
  return {
    ...oneLineSession({
      sub,
      email,
      currency: pack.currency,
      unitCents: pack.priceCents,
      quantity: 1,
      product: { name: lineItemName(pack), description: lineItemDescription(pack) },
      successUrl: `${origin}/success?session_id={CHECKOUT_SESSION_ID}&redirect=dashboard`,
      cancelUrl: `${origin}/checkout/cancelled?pack=${encodeURIComponent(pack.id)}`,
      metadata: {
        user_id: sub,
        pack_id: pack.id,
        credits: String(pack.credits),
        amount: String(pack.priceCents),
        package_name: pack.name,
        ...(email ? { user_email: email } : {}),
      },
    }),
    allow_promotion_codes: true,
  };
}

/**
 * A one-line-item card payment session, a credit pack's and a team's seats alike: price and quantity as the server
 * decided them, the buyer's e-mail when known (Checkout asks for it otherwise), `client_reference_id` = `sub`.
 */
export function oneLineSession(input: {
  sub: string;
  email: string | undefined;
  /** ISO 4217, lower case: every price is in US dollars. */
  currency: 'usd';
  /** One unit's price, in cents. */
  unitCents: number;
  quantity: number;
  product: { name: string; description: string };
  successUrl: string;
  cancelUrl: string;
  metadata: CheckoutMetadata;
}): CheckoutSessionParams {
  const { sub, email } = input;
  return {
    mode: 'payment',
    allowed_payment_method_types: ['card'],
    line_items: [
      {
        price_data: { currency: input.currency, unit_amount: input.unitCents, product_data: input.product },
        quantity: input.quantity,
      },
    ],
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    ...(email ? { customer_email: email } : {}),
    client_reference_id: sub,
    metadata: input.metadata,
  };
}

/**
 * The idempotency key of a session creation (Stripe "Idempotent requests": keys are kept 24 h and a replay returns
 * the first answer). Scoped to the user and the pack, so one user's key can never return another user's session,
 * and the same client key reused for another pack never trips Stripe's "same key, different parameters" error.
 *
 * @param requestKey the client's `Idempotency-Key` header (one per purchase click) or, without one, the API
 *   request id (which still makes the SDK's own network retries safe)
 */
export function checkoutIdempotencyKey(sub: string, packId: string, requestKey: string): string {
  return `checkout-session:${sub}:${packId}:${requestKey}`.slice(0, 255);
}

/** The `Idempotency-Key` header a client may send: 8-128 characters of letters, digits, `-` and `_`. */
export const CLIENT_IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * The parts of a Checkout Session these rules read. Stripe's `Checkout.Session` satisfies it structurally; the
 * local provider returns the same shape.
 */
export interface CheckoutSessionLike {
  id: string;
  /** `open` | `complete` | `expired` (Stripe may add values). */
  status: string | null;
  /** `paid` | `unpaid` | `no_payment_required`. */
  payment_status: string;
  /** Cents after discounts and taxes. */
  amount_total: number | null;
  /** Cents before discounts and taxes. */
  amount_subtotal: number | null;
  currency: string | null;
  client_reference_id: string | null;
  customer_email: string | null;
  customer_details?: { email: string | null } | null;
  metadata: Record<string, string> | null;
  payment_intent: string | { id: string } | null;
  line_items?: { data: { quantity: number | null }[] } | null;
}

/** What the payment result page is told (`GET /api/checkout/sessions/{id}` → `status`). Only `paid` is a success. */
export type CheckoutStatus =
  /** Credited (now or by an earlier call): paid, or made free by a 100 % promotion code. */
  | 'paid'
  /** Not paid (yet): open, declined, or an asynchronous payment still pending. */
  | 'unpaid'
  /** The session expired without payment. */
  | 'expired'
  /** Nothing to pay but not credited: kept for old clients; a free session that matches its purchase is `paid`. */
  | 'no_payment_required'
  /** Paid, but it does not match the purchase recorded at creation (amount, currency, quantity, owner). */
  | 'invalid';

/**
 * What the server recorded when it created the session: the pending purchase (docs/architecture.md §8 "Money").
 * Fulfilment checks the paid session against this, not against today's price list, so a price change while a
 * session is open never strands a buyer.
 */
export interface ExpectedPurchase {
  packId: string;
  /** Credits the buyer was promised. */
  credits: number;
  /** Price in cents at creation. */
  priceCents: number;
  /** ISO 4217, lower case. */
  currency: string;
  /** The line item's quantity: 1 for a pack, the seats of a team's seat purchase (docs/teams.md "Money"). */
  quantity?: number;
  /** Who created the session, when recorded (a seat purchase): the session's owner must be them. */
  buyerSub?: string;
}

/** The expectation for a session created before pending purchases existed: today's pack of that id. */
export function expectedFromPack(pack: CreditPack): ExpectedPurchase {
  return { packId: pack.id, credits: pack.credits, priceCents: pack.priceCents, currency: pack.currency };
}

/** The verdict on a retrieved session. */
export type CheckoutAssessment =
  | {
      kind: 'fulfil';
      /** The buyer's Cognito `sub`. */
      sub: string;
      email: string | undefined;
      packId: string;
      /** Credits to grant. */
      credits: number;
      /** Cents actually charged (0 with a 100 % promotion code). */
      amountTotal: number;
      currency: string;
      /** `undefined` when nothing was charged (then there is nothing to refund or dispute either). */
      paymentIntentId: string | undefined;
    }
  | { kind: 'not-paid'; status: Exclude<CheckoutStatus, 'paid' | 'invalid'>; sub: string | undefined }
  | { kind: 'invalid'; reason: string; sub: string | undefined };

/** The buyer of a session: `client_reference_id`, which must agree with `metadata.user_id` when both are set. */
export function sessionOwner(session: CheckoutSessionLike): string | undefined {
  const ref = session.client_reference_id ?? undefined;
  const meta = session.metadata?.user_id || undefined;
  if (ref && meta && ref !== meta) return undefined;
  return ref ?? meta;
}

/**
 * Decides what a retrieved Checkout Session is worth (Stripe "Fulfill orders": fulfil only when `payment_status`
 * says the money is there; docs/product-spec.md §4: "only 'paid' triggers crediting" — and a 100 % promotion code,
 * `no_payment_required` with `amount_total` 0, is credited too: the buyer did everything asked of them).
 *
 * A session is credited only if it is exactly what our server sold: metadata `pack_id` names the expected pack
 * (`expected`, the pending purchase recorded at creation; without one, today's pack of that id); currency is its
 * currency; `amount_subtotal` (before promotion codes, which we allow) equals its price in cents and `amount_total`
 * is not above it; one line item of quantity 1 when line items are expanded; `metadata.credits` (when present)
 * equals its credits; and the owner is consistent (and, when recorded, the buyer). A seat purchase's one line item
 * has the recorded quantity (its seats) instead of 1. Anything else is `invalid`: never credited, for a person to look
 * at (a session created elsewhere in the Stripe account, for instance).
 */
export function assessCheckoutSession(
  session: CheckoutSessionLike,
  expected?: ExpectedPurchase,
): CheckoutAssessment {
  const sub = sessionOwner(session);
  const free = session.payment_status === 'no_payment_required';
  if (session.payment_status !== 'paid' && !free) {
    return { kind: 'not-paid', status: session.status === 'expired' ? 'expired' : 'unpaid', sub };
  }
  const invalid = (reason: string): CheckoutAssessment => ({ kind: 'invalid', reason, sub });
  if (free && session.status !== 'complete') return { kind: 'not-paid', status: 'unpaid', sub };
  if (!sub) return invalid('no consistent owner (client_reference_id / metadata.user_id)');
  const packId = session.metadata?.pack_id;
  const pack = packId ? findPack(packId) : undefined;
  const want = expected ?? (pack ? expectedFromPack(pack) : undefined);
  if (!want || want.packId !== packId) return invalid(`unknown pack_id ${JSON.stringify(packId ?? null)}`);
  if (session.currency?.toLowerCase() !== want.currency)
    return invalid(`currency ${session.currency} is not ${want.currency}`);
  if (session.amount_subtotal !== want.priceCents)
    return invalid(`amount_subtotal ${session.amount_subtotal} is not the recorded price ${want.priceCents}`);
  if (session.amount_total === null || session.amount_total < 0 || session.amount_total > want.priceCents)
    return invalid(`amount_total ${session.amount_total} is outside 0..${want.priceCents}`);
  if (free && session.amount_total !== 0)
    return invalid(`no_payment_required with amount_total ${session.amount_total}`);
  const credits = session.metadata?.credits;
  if (credits !== undefined && credits !== String(want.credits))
    return invalid(`metadata.credits ${credits} is not the recorded credits ${want.credits}`);
  if (want.buyerSub !== undefined && want.buyerSub !== sub)
    return invalid(`owner ${sub} is not the recorded buyer ${want.buyerSub}`);
  const quantity = want.quantity ?? 1;
  const items = session.line_items?.data;
  if (items && (items.length !== 1 || items[0]?.quantity !== quantity))
    return invalid(`expected exactly one line item of quantity ${quantity}`);
  const intent = session.payment_intent;
  return {
    kind: 'fulfil',
    sub,
    email:
      session.customer_details?.email ?? session.customer_email ?? session.metadata?.user_email ?? undefined,
    packId: want.packId,
    credits: want.credits,
    amountTotal: session.amount_total,
    currency: want.currency,
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? undefined),
  };
}
