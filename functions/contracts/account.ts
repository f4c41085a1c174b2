import * as z from 'zod/mini';
import { generationEditSchema } from './edits';

/**
 * The account's routes (docs/architecture.md §3): the caller's profile, preferences, deleting their data, the credit
 * packs and Stripe Checkout.
 */

/**
 * The caller's generation still running, as `GET /api/me` reports it so any tab or device can show its progress
 * (poll `GET /api/generations/{id}` for the details): at most one runs per user (docs/architecture.md §2).
 */
export const activeGenerationSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running']),
  /** 0-100. */
  progress: z.number(),
  /** 6, or 1 for a regeneration. */
  headshotsExpected: z.number().check(z.int()),
  /** The headshot a one-slot generation regenerates; null for a generation of 6. */
  regeneratedFrom: z.nullable(z.string()),
  /** The edit a one-slot generation makes (issue 36); null otherwise. Absent from older answers: read it as null. */
  edit: z.optional(z.nullable(generationEditSchema)),
  createdAt: z.string(),
});
export type ActiveGeneration = z.infer<typeof activeGenerationSchema>;

/** `GET /api/me` 200: the caller's profile; `credits` is a whole number, never negative. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  credits: z.number().check(z.int()),
  /**
   * `already-claimed` when an earlier account of the same person had the free credits, `disposable-address` when
   * the account's address is at a disposable e-mail service (this one started at 0 either way).
   */
  signupBonus: z.enum(['granted', 'already-claimed', 'disposable-address']),
  /**
   * Credits the account owes because a refund or dispute took back credits already spent; the next credits it
   * receives pay them first (docs/architecture.md §2). Absent from older answers: read it as 0.
   */
  creditsOwed: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** "E-mail me when my headshots are ready". */
  emailWhenReady: z.boolean(),
  /**
   * Whether step 3 offers the high-resolution option (the configured image model can make it: docs/product-spec.md
   * §2 step 3); absent in older answers: no.
   */
  highResolution: z.optional(z.boolean()),
  createdAt: z.string(),
  /** The generation still running (queued or running), or null: the wizard and dashboard resume it. */
  activeGeneration: z.nullable(activeGenerationSchema),
});
export type Me = z.infer<typeof meSchema>;

/** `PATCH /api/me` body and 200: the preferences a customer may change. */
export const updateMeBody = z.strictObject({
  /** "E-mail me when my headshots are ready" (on by default). */
  emailWhenReady: z.boolean(),
});
export type UpdateMeBody = z.infer<typeof updateMeBody>;
export const preferencesSchema = updateMeBody;

/** `DELETE /api/me/data` 200: items and S3 objects removed. */
export const deletedDataSchema = z.object({
  deleted: z.object({
    headshots: z.number().check(z.int()),
    generations: z.number().check(z.int()),
    /** Uploads, their normalized copies, headshot images and thumbnails. */
    objects: z.number().check(z.int()),
  }),
});
export type DeletedData = z.infer<typeof deletedDataSchema>;

/** A credit pack as sold (docs/product-spec.md §9): money in USD cents; `pricePerCredit` in USD, display only. */
export const creditPackSchema = z.object({
  id: z.enum(['starter', 'popular', 'pro']),
  name: z.string(),
  credits: z.number().check(z.int(), z.positive()),
  priceCents: z.number().check(z.int(), z.nonnegative()),
  currency: z.literal('usd'),
  pricePerCredit: z.number().check(z.nonnegative()),
  popular: z.boolean(),
  features: z.readonly(z.array(z.string())),
});
export type CreditPackView = z.infer<typeof creditPackSchema>;

/** `GET /api/packs` 200. */
export const packsSchema = z.object({ packs: z.readonly(z.array(creditPackSchema)) });
export type Packs = z.infer<typeof packsSchema>;

/** `POST /api/checkout/sessions` body: only `packId` matters (a price or credits sent along are dropped). */
export const createCheckoutSessionBody = z.object({
  packId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
});
export type CreateCheckoutSessionBody = z.infer<typeof createCheckoutSessionBody>;

/**
 * `POST /api/checkout/sessions` 200: the Checkout Session and its hosted page to send the browser to — an http(s)
 * URL only, since the SPA navigates to it.
 */
export const checkoutSessionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  url: z.url({ protocol: /^https?$/ }),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/**
 * `GET /api/checkout/sessions/{id}` 200: only `paid` is success; `creditsAdded` is the pack's credits when paid
 * (also when the webhook credited first), else 0; `credits` is the balance afterwards.
 */
export const checkoutResultSchema = z.object({
  status: z.enum(['paid', 'unpaid', 'expired', 'no_payment_required', 'invalid']),
  creditsAdded: z.number().check(z.int(), z.nonnegative()),
  credits: z.number().check(z.int(), z.nonnegative()),
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

/** `POST /api/webhooks/stripe` 200: what the webhook did with Stripe's event. */
export const stripeWebhookResultSchema = z.object({
  received: z.literal(true),
  ignored: z.optional(z.literal(true)),
  status: z.optional(z.string()),
  creditsAdded: z.optional(z.number().check(z.int())),
  /** Credits taken back by a refund or dispute. */
  creditsReversed: z.optional(z.number().check(z.int())),
});

/** `GET /api/health` 200 (`time`: ISO 8601). */
export const healthSchema = z.object({ status: z.literal('ok'), time: z.string() });
export type Health = z.infer<typeof healthSchema>;
