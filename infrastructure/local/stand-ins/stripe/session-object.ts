import { stripeId } from './events';
import type { CreateParams } from './wire';

/*
 * The Checkout Session object of the local Checkout provider, in Stripe's shape (docs/architecture.md §5): the
 * fields this provider sets, the rest as Stripe's defaults for a hosted, one-time payment session.
 */

/** How long a Checkout Session stays open, as Stripe's default: 24 h, in seconds. */
export const DAY_SECONDS = 24 * 60 * 60;

/** A line item as `GET /v1/checkout/sessions/:id/line_items` returns it (Stripe's `item` object). */
export interface LineItemObject {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Record<string, unknown> & { unit_amount: number };
  quantity: number;
}

/** The Checkout Session object (Stripe's shape; the fields this provider sets, the rest as Stripe's defaults). */
export type SessionObject = Record<string, unknown> & {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  amount_total: number;
  currency: string;
  success_url: string;
  cancel_url: string | null;
  customer_email: string | null;
  expires_at: number;
  url: string | null;
};

/** A session as created: the object, its line items, and the products their prices point to. */
export interface NewSession {
  session: SessionObject;
  lineItems: LineItemObject[];
  /** The products the line items' prices point to (`prod_…` → name and description), as Stripe keeps them. */
  products: Record<string, { name: string; description: string | null }>;
}

/**
 * A new open Checkout Session in Stripe's shape, from validated creation parameters: its line items with their
 * prices and products, `amount_total` in the currency's minor unit, `expires_at` 24 h from now, and `url` on the
 * hosted page at `pageBase` (`<pageBase>/pay/<id>`).
 */
export function newCheckoutSession(params: CreateParams, pageBase: string): NewSession {
  const id = stripeId('cs_test_', 58);
  const now = Math.floor(Date.now() / 1000);
  const currency = params.line_items[0]!.price_data.currency.toLowerCase();
  const products: NewSession['products'] = {};
  const lineItems: LineItemObject[] = params.line_items.map((li) => {
    const amount = li.price_data.unit_amount * li.quantity;
    const product = stripeId('prod_');
    products[product] = {
      name: li.price_data.product_data.name,
      description: li.price_data.product_data.description ?? null,
    };
    return {
      id: stripeId('li_'),
      object: 'item',
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency,
      description: li.price_data.product_data.name,
      price: {
        id: stripeId('price_'),
        object: 'price',
        active: false,
        billing_scheme: 'per_unit',
        created: now,
        currency,
        livemode: false,
        lookup_key: null,
        metadata: {},
        nickname: null,
        product,
        recurring: null,
        tax_behavior: 'unspecified',
        type: 'one_time',
        unit_amount: li.price_data.unit_amount,
        unit_amount_decimal: String(li.price_data.unit_amount),
      },
      quantity: li.quantity,
    };
  });
  const total = lineItems.reduce((sum, li) => sum + li.amount_total, 0);
  const session: SessionObject = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: params.allow_promotion_codes ?? null,
    allowed_payment_method_types: params.allowed_payment_method_types ?? null,
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: params.cancel_url ?? null,
    client_reference_id: params.client_reference_id ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: now,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: params.customer_email ?? null,
    discounts: [],
    expires_at: now + DAY_SECONDS,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: params.metadata ?? {},
    mode: 'payment',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: params.allowed_payment_method_types ?? ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: params.success_url,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${pageBase}/pay/${id}`,
    wallet_options: null,
  };
  return { session, lineItems, products };
}
