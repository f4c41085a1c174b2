import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_API_KEY, STRIPE_API_VERSION } from '../../functions/adapters/stripe/client';
import { buildCheckoutSessionParams } from '../../functions/domain/checkout';
import { findPack } from '../../functions/domain/packs';
import { buildSeatCheckoutParams, MAX_CHARGE_CENTS } from '../../functions/domain/team-checkout';
import { MAX_SEATS_PER_PURCHASE, seatPurchase } from '../../functions/domain/team-seats';
import {
  escapeHtml,
  formatMoney,
  renderCheckoutPage,
} from '../../infrastructure/local/stand-ins/stripe/hosted-page';
import { startLocalPayments } from '../../infrastructure/local/stand-ins/stripe/local-payments';
import {
  MAX_AMOUNT,
  parseStripeForm,
  StripeStyleError,
  validateCreateParams,
} from '../../infrastructure/local/stand-ins/stripe/wire';
import { createPartLog } from '../../infrastructure/local/support/log';

const popular = findPack('popular')!;
const SUB = '8a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d';

/** The form body the Stripe SDK sends for a session creation with `params` (captured without a network). */
async function encodedBySdk(params: Stripe.Checkout.SessionCreateParams): Promise<string> {
  let captured = '';
  const fetchFn = async (_url: string | URL | Request, init?: RequestInit) => {
    captured = String(init?.body ?? '');
    return new Response(
      JSON.stringify({ id: 'cs_test_1', object: 'checkout.session', url: 'http://x/pay' }),
      {
        status: 200,
        headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
      },
    );
  };
  const stripe = new Stripe(LOCAL_STRIPE_API_KEY, {
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    maxNetworkRetries: 0,
  });
  await stripe.checkout.sessions.create(params);
  return captured;
}

/*
 * The local Checkout provider (infrastructure/local/stand-ins/stripe): when the local stack starts it, the form
 * encoding and validation it shares with Stripe, and its hosted page.
 */

describe('local stack wiring', () => {
  it('with a real STRIPE_SECRET_KEY the local provider is not started and the environment is left alone', async () => {
    const configuredEnv = {
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_from_stripe_listen',
    };
    const payments = await startLocalPayments({
      configuredEnv,
      port: 1, // never bound
      dataDir: '/nonexistent',
      gatewayUrl: 'http://127.0.0.1:1',
      log: createPartLog('checkout', { quiet: true }),
    });
    expect(payments).toBeUndefined();
    expect(configuredEnv).toEqual({
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_from_stripe_listen',
    });
  });
});

describe('local provider: form parsing and validation', () => {
  it('parses exactly what the SDK sends (captured without a network)', async () => {
    const params = buildCheckoutSessionParams({
      pack: popular,
      sub: SUB,
      email: 'ada+test@example.com',
      siteOrigin: 'http://localhost:5173',
    });
    const captured = await encodedBySdk(params);
    expect(captured).toContain('line_items[0][price_data][product_data][name]=60%20AI%20Headshot%20Credits');
    const parsed = validateCreateParams(parseStripeForm(captured));
    expect(parsed).toEqual({
      ...params,
      line_items: [{ ...params.line_items[0], quantity: 1 }],
    });
  });

  it('builds arrays from a[0] and a[], and drops keys that could pollute prototypes', () => {
    const parsed = parseStripeForm(
      'expand[]=line_items&expand[]=payment_intent&a[__proto__][x]=1&constructor=2&m[k]=v',
    );
    expect(parsed).toEqual({ expand: ['line_items', 'payment_intent'], m: { k: 'v' } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('answers like Stripe: missing and unknown parameters name the param', () => {
    const expectError = (raw: Record<string, unknown>, message: string, param: string) => {
      let error: unknown;
      try {
        validateCreateParams(raw);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StripeStyleError);
      expect((error as StripeStyleError).toJSON()).toEqual({
        error: { type: 'invalid_request_error', message, param },
      });
    };
    const base = parseStripeForm(
      'mode=payment&success_url=http%3A%2F%2Fx.test%2Fok&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=100&line_items[0][price_data][product_data][name]=N',
    );
    expect(validateCreateParams(base).line_items[0]?.price_data.unit_amount).toBe(100);
    expectError({ ...base, line_items: undefined }, 'Missing required param: line_items.', 'line_items');
    expectError(
      { ...base, payment_method_types: ['card'] },
      'Received unknown parameter: payment_method_types',
      'payment_method_types',
    );
    const noCurrency = structuredClone(base) as { line_items: { price_data: Record<string, unknown> }[] };
    delete noCurrency.line_items[0]!.price_data.currency;
    expectError(
      noCurrency,
      'Missing required param: line_items[0][price_data][currency].',
      'line_items[0][price_data][currency]',
    );
  });
});

describe('local provider: a quantity (a team’s seats)', () => {
  const base = () =>
    parseStripeForm(
      'mode=payment&success_url=http%3A%2F%2Fx.test%2Fok&line_items[0][quantity]=3&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=700&line_items[0][price_data][product_data][name]=Team%20seat',
    );

  it('takes what our seat purchase sends: the SDK’s encoding of quantity = seats, at the server’s unit price', async () => {
    const params = buildSeatCheckoutParams({
      teamId: '01M9TEAM0000000000000000AB',
      teamName: 'Acme',
      seats: MAX_SEATS_PER_PURCHASE,
      sub: SUB,
      email: 'ada@example.com',
      siteOrigin: 'http://localhost:5173',
    });
    const captured = await encodedBySdk(params);
    expect(captured).toContain(`line_items[0][quantity]=${MAX_SEATS_PER_PURCHASE}`);
    expect(captured).not.toContain('adjustable_quantity');
    expect(captured).not.toContain('allow_promotion_codes');
    expect(validateCreateParams(parseStripeForm(captured))).toEqual(params);
  });

  /** The Stripe-style error of `raw`, as the provider answers it. */
  const errorOf = (raw: Record<string, unknown>) => {
    try {
      validateCreateParams(raw);
    } catch (error) {
      return (error as StripeStyleError).toJSON();
    }
    return undefined;
  };

  it('refuses a total above Stripe’s eight digits with amount_too_large, and takes the largest allowed', () => {
    const at = (unit: number, quantity: number) => {
      const raw = base() as { line_items: { quantity: string; price_data: { unit_amount: string } }[] };
      raw.line_items[0]!.quantity = String(quantity);
      raw.line_items[0]!.price_data.unit_amount = String(unit);
      return raw;
    };
    expect(errorOf(at(MAX_AMOUNT, 1))).toBeUndefined();
    expect(errorOf(at(33_333_333, 3))).toBeUndefined();
    expect(errorOf(at(33_333_334, 3))).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message:
          'The specified amount is greater than the maximum amount allowed. Use a lower amount and try again.',
        param: 'line_items',
      },
    });
    // Our largest seat purchase is far below it.
    expect(seatPurchase(MAX_SEATS_PER_PURCHASE).totalCents).toBeLessThan(MAX_AMOUNT);
    expect(MAX_CHARGE_CENTS).toBe(MAX_AMOUNT);
  });

  it('refuses a quantity below 1, and an adjustable quantity (never sent: the server decides it)', () => {
    const zero = base() as { line_items: Record<string, unknown>[] };
    zero.line_items[0]!.quantity = '0';
    expect(errorOf(zero)?.error).toMatchObject({ param: 'line_items[0][quantity]' });
    const adjustable = base() as { line_items: Record<string, unknown>[] };
    adjustable.line_items[0]!.adjustable_quantity = { enabled: 'true' };
    expect(errorOf(adjustable)?.error).toMatchObject({
      message: 'Received unknown parameter: line_items[0][adjustable_quantity]',
    });
  });
});

describe('local provider: hosted page', () => {
  const view = {
    sessionId: 'cs_test_1',
    merchantName: 'Headshot Studio',
    state: 'open' as const,
    currency: 'usd',
    amountTotal: 4500,
    customerEmail: '<b>ada</b>@example.com',
    lineItems: [{ name: '<script>alert(1)</script>', description: 'A & B', quantity: 1, amountTotal: 4500 }],
    expiresAt: 1_800_000_000,
    declined: false,
    actions: {
      pay: '/pay/cs_test_1/pay',
      decline: '/pay/cs_test_1/decline',
      cancel: '/pay/cs_test_1/cancel',
    },
    returnUrl: null,
    apiVersion: STRIPE_API_VERSION,
  };

  it('says it is the local test checkout, shows the amount, and offers Pay, Decline and Cancel forms', () => {
    const html = renderCheckoutPage(view);
    expect(html).toContain('Local test checkout');
    expect(html).toContain('Pay $45.00');
    for (const action of Object.values(view.actions))
      expect(html).toContain(`<form method="post" action="${action}">`);
    expect(html).toContain('Decline payment');
    expect(html).toContain('Cancel and return to Headshot Studio');
    expect(html).not.toMatch(/<(script|link)\b|src=|https?:\/\/(?!stripe)/i); // self-contained: no external assets
  });

  it('escapes everything it did not write itself', () => {
    const html = renderCheckoutPage(view);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;ada&lt;/b&gt;@example.com');
    expect(escapeHtml(`"'&<>`)).toBe('&quot;&#39;&amp;&lt;&gt;');
  });

  it('formats minor units per currency', () => {
    expect(formatMoney(4500, 'usd')).toBe('$45.00');
    expect(formatMoney(500, 'jpy')).toBe('¥500');
  });
});
