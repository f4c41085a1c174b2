import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { readBody } from '../../support/http';

/*
 * The wire format of the local Checkout provider (docs/architecture.md §5): Stripe's form encoding as the SDK sends
 * it, Stripe's error body, and Checkout Session creation parameters validated with Stripe's messages.
 */

/** A Stripe-style error body, `{ error: { type, message, code?, param? } }`, and its HTTP status. */
export class StripeStyleError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'api_error',
    message: string,
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }

  toJSON() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses a form-encoded body the way Stripe reads the SDK's encoding: `a[b][c]=v` nests objects, `a[0][b]=v` and
 * `a[]=v` build arrays, values stay strings. Keys that could pollute prototypes are dropped.
 *
 * @example parseStripeForm('line_items[0][quantity]=1&metadata[pack_id]=pro') →
 *   `{ line_items: [{ quantity: '1' }], metadata: { pack_id: 'pro' } }`
 */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [key];
    if (path.some((segment) => FORBIDDEN_KEYS.has(segment))) continue;
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const next = path[i + 1];
      const container = () => (next === '' || /^\d+$/.test(next ?? '') ? [] : {});
      if (Array.isArray(node)) {
        const index = segment === '' ? node.length : Number(segment);
        if (!Number.isSafeInteger(index) || index > 1000) return;
        if (last) node[index] = value;
        else node = (node[index] ??= container()) as Record<string, unknown> | unknown[];
      } else {
        if (last) node[segment] = value;
        else node = (node[segment] ??= container()) as Record<string, unknown> | unknown[];
      }
    });
  }
  return compactArrays(root) as Record<string, unknown>;
}

function compactArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compactArrays);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactArrays(v)]));
  }
  return value;
}

const intString = z
  .string()
  .regex(/^\d{1,15}$/, 'Invalid integer')
  .transform(Number);
const boolString = z.enum(['true', 'false']).transform((v) => v === 'true');
const url = z.url({ protocol: /^https?$/, error: 'Not a valid URL' });

/**
 * The Checkout Session creation parameters the local provider supports (a strict subset of Stripe's). Not among them:
 * `line_items[][adjustable_quantity]`, which Stripe accepts (`enabled`; `minimum` default 0; `maximum` default 99, at
 * most 999999, and at least a `quantity` above 99: https://docs.stripe.com/payments/checkout/adjustable-quantity) but
 * our server never sends — a seat purchase's quantity is decided on the server, so the amount paid is the amount
 * recorded (docs/teams.md "Money") — and this provider refuses as an unknown parameter.
 */
const createParamsSchema = z.strictObject({
  mode: z.literal('payment', { error: 'The local Checkout provider supports mode=payment only.' }),
  allowed_payment_method_types: z.array(z.string()).optional(),
  line_items: z
    .array(
      z.strictObject({
        price_data: z.strictObject({
          currency: z.string().regex(/^[a-zA-Z]{3}$/, 'Invalid currency'),
          unit_amount: intString,
          product_data: z.strictObject({
            name: z.string().min(1),
            description: z.string().optional(),
          }),
        }),
        quantity: intString.pipe(z.number().int().min(1, 'Quantity must be at least 1')),
      }),
    )
    .min(1),
  success_url: url,
  cancel_url: url.optional(),
  customer_email: z.email({ error: 'Invalid email address' }).optional(),
  client_reference_id: z.string().max(200).optional(),
  metadata: z
    .record(z.string().max(40), z.string().max(500))
    .refine((m) => Object.keys(m).length <= 50, 'Metadata can have at most 50 keys')
    .optional(),
  allow_promotion_codes: boolString.optional(),
  expand: z.array(z.string()).optional(),
});

export type CreateParams = z.output<typeof createParamsSchema>;

/**
 * The largest amount Stripe charges, in the currency's minor unit: eight digits, 99,999,999 (USD $999,999.99),
 * whatever the currency (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). A session whose
 * total is larger is refused with the code `amount_too_large`, whose words are Stripe's description of that code
 * (https://docs.stripe.com/error-codes#amount-too-large).
 */
export const MAX_AMOUNT = 99_999_999;

/** Refuses parameters whose line items add up (unit amount × quantity) to more than Stripe charges. */
function assertAmountAllowed(params: CreateParams): void {
  const total = params.line_items.reduce((sum, li) => sum + li.price_data.unit_amount * li.quantity, 0);
  if (total > MAX_AMOUNT) {
    throw new StripeStyleError(
      400,
      'invalid_request_error',
      'The specified amount is greater than the maximum amount allowed. Use a lower amount and try again.',
      'line_items',
      'amount_too_large',
    );
  }
}

/** Stripe's bracket notation of a parameter path: `line_items[0][price_data][currency]`. */
function bracketPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (i === 0 ? String(p) : `[${String(p)}]`)).join('');
}

/**
 * Validates creation parameters like Stripe does, with its messages ("Missing required param: …", "Received
 * unknown parameter: …"), and the largest amount Stripe charges ({@link MAX_AMOUNT}).
 *
 * @throws {StripeStyleError} 400 `invalid_request_error` naming the offending `param` (code `amount_too_large` for a
 *   total above {@link MAX_AMOUNT})
 */
export function validateCreateParams(raw: Record<string, unknown>): CreateParams {
  const result = createParamsSchema.safeParse(raw);
  if (result.success) {
    const currencies = new Set(result.data.line_items.map((li) => li.price_data.currency.toLowerCase()));
    if (currencies.size > 1) {
      throw new StripeStyleError(
        400,
        'invalid_request_error',
        'All line items must use the same currency.',
        'line_items',
      );
    }
    assertAmountAllowed(result.data);
    return result.data;
  }
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const param = bracketPath([...issue.path, issue.keys[0]!]);
    throw new StripeStyleError(400, 'invalid_request_error', `Received unknown parameter: ${param}`, param);
  }
  const param = bracketPath(issue.path);
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    throw new StripeStyleError(400, 'invalid_request_error', `Missing required param: ${param}.`, param);
  }
  throw new StripeStyleError(400, 'invalid_request_error', `Invalid ${param}: ${issue.message}`, param);
}

/**
 * Reads a request body as UTF-8 text (Stripe's API is form-encoded), at most `limit` bytes (default 256 KiB).
 *
 * @throws {StripeStyleError} 413 for a larger body.
 */
export async function readFormBody(req: IncomingMessage, limit = 256 * 1024): Promise<string> {
  const body = await readBody(req, limit);
  if (body === 'too-large')
    throw new StripeStyleError(413, 'invalid_request_error', 'Request body too large.');
  return body.toString('utf8');
}

/** One request to the local Checkout provider, as its routes receive it. */
export interface ProviderRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Upper-case HTTP method. */
  method: string;
}
