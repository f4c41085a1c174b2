import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { STRIPE_API_VERSION } from '../../../../functions/adapters/stripe';
import { renderCheckoutPage, renderNotFoundPage } from './hosted-page';
import {
  applyPromotionCode,
  chargeObject,
  disputeCharge,
  LOCAL_PROMOTION_CODES,
  newCharge,
  refundCharge,
  refundObject,
  type ChargeState,
} from './charges';
import { checkoutEvent, deliverWebhook, newWebhookSecret, stripeId } from './events';
import { parseStripeForm, StripeStyleError, validateCreateParams, type CreateParams } from './wire';
import type { PartLog } from '../../support/log';

export { checkoutEvent, deliverWebhook, newWebhookSecret, stripeId } from './events';
export { parseStripeForm, StripeStyleError, validateCreateParams } from './wire';
import { HOST } from '../../support/ports';

/*
 * The local Checkout provider (docs/architecture.md §5): a small node:http server on loopback that speaks the part of Stripe's
 * API this product uses, with Stripe's object shapes and error format, so the real `stripe` SDK and the real
 * verification and fulfilment code run with no Stripe account:
 *
 *   POST /v1/checkout/sessions                 form-encoded, as the SDK sends it (Idempotency-Key honoured)
 *   GET  /v1/checkout/sessions/:id             `expand[]=line_items` supported
 *   GET  /v1/checkout/sessions/:id/line_items
 *   POST /v1/checkout/sessions/:id/expire
 *   GET  /pay/:id                              the hosted checkout page (the session's `url`)
 *   POST /pay/:id/pay | /decline | /cancel     its three buttons (HTML forms), each answering 303
 *
 * Pay completes the session (`status: complete`, `payment_status: paid`, a fake `pi_…`), POSTs a
 * `checkout.session.completed` event signed exactly like Stripe's (`Stripe-Signature`, built with the SDK's
 * `webhooks.generateTestHeaderString` and the webhook secret) to the API, waits for the answer, and redirects to
 * `success_url`. Decline leaves the session open and unpaid and redirects to `success_url` (the failure screen);
 * Cancel redirects to `cancel_url`. Sessions live in memory and in `<dataDir>/sessions.json`.
 */

/** A line item as `GET /v1/checkout/sessions/:id/line_items` returns it (Stripe's `item` object). */
interface LineItemObject {
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
type SessionObject = Record<string, unknown> & {
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

interface StoredSession {
  session: SessionObject;
  lineItems: LineItemObject[];
  /** The products the line items' prices point to (`prod_…` → name and description), as Stripe keeps them. */
  products: Record<string, { name: string; description: string | null }>;
  /** Unix seconds of the last simulated decline. */
  declinedAt?: number;
  /** The charge of a paid session (none when a promotion code made it free). */
  charge?: ChargeState;
  /** The last promotion code the page refused, shown once (not persisted meaning: a page message). */
  promotionError?: string;
}

interface StoreFile {
  version: 1;
  sessions: Record<string, StoredSession>;
  /** Idempotency-Key → the request it was first used with (Stripe keeps keys for 24 h). */
  idempotency: Record<string, { hash: string; sessionId: string; at: number }>;
}

/** Options of {@link startCheckoutProvider}. */
export interface CheckoutProviderOptions {
  /** 0 = any free port. */
  port: number;
  /** Where `sessions.json` is kept; in memory only when omitted. */
  dataDir?: string;
  /** Where Pay posts `checkout.session.completed`; no delivery when omitted. */
  webhookUrl?: string;
  /** The signing secret (`whsec_…`) the API verifies with. Never logged. */
  webhookSecret: string;
  /** The shop name on the page. Default `Headshot Studio`. */
  merchantName?: string;
  log: PartLog;
}

/** A running local Checkout provider. */
export interface CheckoutProvider {
  /** The API base the SDK is pointed at, `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The session in Stripe's shape (`expand: ['line_items']` adds them), or `undefined`. */
  getSession(id: string, options?: { expandLineItems?: boolean }): Record<string, unknown> | undefined;
  /**
   * What Pay does: completes an open session as paid and, unless `deliver` is false, posts the signed
   * `checkout.session.completed` event and waits for the answer.
   *
   * @throws {StripeStyleError} 404 for an unknown session, 400 for an expired one
   */
  pay(
    id: string,
    options?: { deliver?: boolean; promotionCode?: string },
  ): Promise<{ session: Record<string, unknown>; event: Record<string, unknown> | undefined }>;
  /**
   * What a refund in the Stripe dashboard (or `POST /v1/refunds`) does: refunds `amount` cents of the session's
   * charge (default: all that is left) and, unless `deliver` is false, posts the signed `charge.refunded` event.
   *
   * @throws {StripeStyleError} 404 for an unknown session, 400 when it has no charge or nothing is left to refund
   */
  refund(
    id: string,
    options?: { amount?: number; deliver?: boolean },
  ): Promise<{ event: Record<string, unknown>; delivery: number | undefined }>;
  /** What the buyer's bank does: opens a dispute on the session's charge and posts `charge.dispute.created`. */
  dispute(
    id: string,
    options?: { deliver?: boolean },
  ): Promise<{ event: Record<string, unknown>; delivery: number | undefined }>;
  /** Signs and posts an event (a replay, or one held back) to the webhook URL; resolves with the HTTP status. */
  deliver(event: Record<string, unknown>): Promise<number | undefined>;
  /** What Decline does: leaves the session open and unpaid (and remembers the decline for the page). */
  decline(id: string): Record<string, unknown>;
  stop(): Promise<void>;
}

const DAY_SECONDS = 24 * 60 * 60;

function readBody(req: IncomingMessage, limit = 256 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () =>
      size > limit
        ? reject(new StripeStyleError(413, 'invalid_request_error', 'Request body too large.'))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

/**
 * Starts the local Checkout provider on loopback (see the file comment for what it serves).
 *
 * @throws when the port cannot be bound
 */
export async function startCheckoutProvider(options: CheckoutProviderOptions): Promise<CheckoutProvider> {
  const { log } = options;
  const merchantName = options.merchantName ?? 'Headshot Studio';
  const file = options.dataDir ? join(options.dataDir, 'sessions.json') : undefined;
  const store: StoreFile = load(file);
  let pageBase = '';

  function load(path: string | undefined): StoreFile {
    if (!path) return { version: 1, sessions: {}, idempotency: {} };
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as StoreFile;
      if (parsed.version === 1 && parsed.sessions && parsed.idempotency) return parsed;
    } catch {
      // No file yet (first run) or an unreadable one: start empty.
    }
    return { version: 1, sessions: {}, idempotency: {} };
  }

  function save(): void {
    if (!file || !options.dataDir) return;
    const now = Math.floor(Date.now() / 1000);
    for (const [key, entry] of Object.entries(store.idempotency)) {
      if (now - entry.at > DAY_SECONDS) delete store.idempotency[key];
    }
    mkdirSync(options.dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(store));
    renameSync(tmp, file);
  }

  /** The stored session, with an open one past `expires_at` turned `expired` (as Stripe does). */
  function stored(id: string): StoredSession | undefined {
    const entry = Object.hasOwn(store.sessions, id) ? store.sessions[id] : undefined;
    if (entry && entry.session.status === 'open' && entry.session.expires_at <= Date.now() / 1000) {
      entry.session.status = 'expired';
      entry.session.url = null;
      save();
    }
    return entry;
  }

  function mustGet(id: string): StoredSession {
    const entry = stored(id);
    if (!entry) {
      throw new StripeStyleError(
        404,
        'invalid_request_error',
        `No such checkout.session: '${id}'`,
        'session',
        'resource_missing',
      );
    }
    return entry;
  }

  function lineItemList(entry: StoredSession) {
    return {
      object: 'list',
      data: entry.lineItems,
      has_more: false,
      url: `/v1/checkout/sessions/${entry.session.id}/line_items`,
    };
  }

  function view(entry: StoredSession, expandLineItems: boolean): Record<string, unknown> {
    const copy = structuredClone(entry.session) as Record<string, unknown>;
    if (expandLineItems) copy.line_items = structuredClone(lineItemList(entry));
    return copy;
  }

  function create(params: CreateParams): StoredSession {
    const id = stripeId('cs_test_', 58);
    const now = Math.floor(Date.now() / 1000);
    const currency = params.line_items[0]!.price_data.currency.toLowerCase();
    const products: StoredSession['products'] = {};
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
    const entry = { session, lineItems, products };
    store.sessions[id] = entry;
    return entry;
  }

  const successUrl = (session: SessionObject) =>
    session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);

  async function send(event: Record<string, unknown>): Promise<number | undefined> {
    const type = String(event.type);
    if (!options.webhookUrl) {
      log.info(`${type}: no webhook URL configured, nothing delivered`);
      return undefined;
    }
    const started = Date.now();
    const outcome = await deliverWebhook(
      options.webhookUrl,
      JSON.stringify(event, null, 2),
      options.webhookSecret,
    );
    const took = `${Date.now() - started} ms`;
    if ('status' in outcome) {
      log.info(`webhook ${type} ${String(event.id)} → ${outcome.status} (${took})`);
      return outcome.status;
    }
    log.error(`webhook ${type} ${String(event.id)} failed: ${outcome.error} (${took})`);
    return undefined;
  }

  function chargeOf(id: string): { entry: StoredSession; charge: ChargeState } {
    const entry = mustGet(id);
    if (!entry.charge) {
      throw new StripeStyleError(
        400,
        'invalid_request_error',
        `Checkout Session ${id} has no charge to refund or dispute.`,
      );
    }
    return { entry, charge: entry.charge };
  }

  async function refund(id: string, refundOptions: { amount?: number; deliver?: boolean } = {}) {
    const { entry, charge } = chargeOf(id);
    refundCharge(charge, refundOptions.amount);
    save();
    const event = checkoutEvent(
      'charge.refunded',
      chargeObject(charge, entry.session.metadata as Record<string, string>),
    );
    return { event, delivery: refundOptions.deliver === false ? undefined : await send(event) };
  }

  async function dispute(id: string, disputeOptions: { deliver?: boolean } = {}) {
    const { charge } = chargeOf(id);
    const event = checkoutEvent('charge.dispute.created', disputeCharge(charge));
    save();
    return { event, delivery: disputeOptions.deliver === false ? undefined : await send(event) };
  }

  async function pay(id: string, payOptions: { deliver?: boolean; promotionCode?: string } = {}) {
    const entry = mustGet(id);
    const { session } = entry;
    if (payOptions.promotionCode && session.status === 'open')
      applyPromotionCode(session, payOptions.promotionCode);
    if (session.status === 'expired') {
      throw new StripeStyleError(
        400,
        'invalid_request_error',
        'This Checkout Session has expired.',
        'session',
      );
    }
    if (session.status === 'complete') return { session: view(entry, false), event: undefined };
    // Synchronous state change before any await: a double-submitted Pay completes once.
    session.status = 'complete';
    if (session.amount_total === 0) {
      // A 100 % promotion code: Checkout completes without a payment (no payment intent, nothing to refund).
      session.payment_status = 'no_payment_required';
    } else {
      entry.charge = newCharge(session.amount_total, session.currency);
      session.payment_status = 'paid';
      session.payment_intent = entry.charge.paymentIntentId;
    }
    session.url = null;
    session.customer_details = {
      address: null,
      business_name: null,
      email: session.customer_email,
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    delete entry.declinedAt;
    save();
    const event = checkoutEvent('checkout.session.completed', view(entry, false));
    if (payOptions.deliver !== false) await send(event);
    return { session: view(entry, false), event };
  }

  function decline(id: string) {
    const entry = mustGet(id);
    if (entry.session.status === 'open') {
      entry.declinedAt = Math.floor(Date.now() / 1000);
      save();
    }
    return view(entry, false);
  }

  function sendJson(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-cache, no-store',
      'request-id': stripeId('req_', 14),
      'stripe-version': STRIPE_API_VERSION,
    });
    res.end(JSON.stringify(body));
  }

  function sendHtml(res: ServerResponse, status: number, html: string): void {
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
    res.end(html);
  }

  function redirect(res: ServerResponse, location: string): void {
    res.writeHead(303, { location, 'cache-control': 'no-store' });
    res.end();
  }

  function pageView(entry: StoredSession) {
    const { session } = entry;
    return {
      sessionId: session.id,
      merchantName,
      state: session.status,
      currency: session.currency,
      amountTotal: session.amount_total,
      customerEmail: session.customer_email,
      lineItems: entry.lineItems.map((li) => ({
        name: li.description,
        description: entry.products[String(li.price.product)]?.description ?? null,
        quantity: li.quantity,
        amountTotal: li.amount_total,
      })),
      expiresAt: session.expires_at,
      declined: entry.declinedAt !== undefined,
      promotionCodes: {
        allowed: session.allow_promotion_codes === true,
        error: entry.promotionError ?? null,
        examples: Object.keys(LOCAL_PROMOTION_CODES).map(
          (code) => `${code} (${LOCAL_PROMOTION_CODES[code]} % off)`,
        ),
      },
      actions: {
        pay: `/pay/${session.id}/pay`,
        decline: `/pay/${session.id}/decline`,
        cancel: `/pay/${session.id}/cancel`,
      },
      returnUrl: session.status === 'complete' ? successUrl(session) : session.cancel_url,
      apiVersion: STRIPE_API_VERSION,
    };
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, method: string) {
    if (!/^Bearer\s+\S+/i.test(req.headers.authorization ?? '')) {
      throw new StripeStyleError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    const parts = url.pathname.split('/').filter(Boolean); // ['v1', 'checkout', 'sessions', id?, action?]
    if (parts.length === 2 && parts[1] === 'refunds' && method === 'POST') {
      const form = parseStripeForm(await readBody(req));
      const intent = String(form.payment_intent ?? '');
      const entry = Object.values(store.sessions).find((e) => e.charge?.paymentIntentId === intent);
      if (!entry) {
        throw new StripeStyleError(
          404,
          'invalid_request_error',
          `No such payment_intent: '${intent}'`,
          'payment_intent',
          'resource_missing',
        );
      }
      const amount = form.amount === undefined ? undefined : Number(form.amount);
      await refund(entry.session.id, { amount });
      const charge = entry.charge!;
      return sendJson(res, 200, refundObject(charge, charge.refunds.at(-1)!));
    }
    if (parts[1] !== 'checkout' || parts[2] !== 'sessions' || parts.length > 5) return undefined;
    const [, , , id, action] = parts;
    if (!id && method === 'POST') {
      const body = await readBody(req);
      const key = req.headers['idempotency-key'];
      const hash = createHash('sha256').update(body).digest('hex');
      if (typeof key === 'string' && Object.hasOwn(store.idempotency, key)) {
        const previous = store.idempotency[key]!;
        if (previous.hash !== hash) {
          throw new StripeStyleError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          );
        }
        return sendJson(res, 200, view(mustGet(previous.sessionId), false));
      }
      const params = validateCreateParams(parseStripeForm(body));
      const entry = create(params);
      if (typeof key === 'string') {
        store.idempotency[key] = { hash, sessionId: entry.session.id, at: Math.floor(Date.now() / 1000) };
      }
      save();
      log.info(`created ${entry.session.id} (${entry.session.amount_total} ${entry.session.currency})`);
      return sendJson(res, 200, view(entry, params.expand?.includes('line_items') ?? false));
    }
    if (id && !action && method === 'GET') {
      const expand = parseStripeForm(url.search.slice(1)).expand;
      const expandLineItems = Array.isArray(expand) && expand.includes('line_items');
      return sendJson(res, 200, view(mustGet(id), expandLineItems));
    }
    if (id && action === 'line_items' && method === 'GET')
      return sendJson(res, 200, lineItemList(mustGet(id)));
    if (id && action === 'expire' && method === 'POST') {
      await readBody(req);
      const entry = mustGet(id);
      if (entry.session.status !== 'open') {
        throw new StripeStyleError(
          400,
          'invalid_request_error',
          'Only Checkout Sessions with a status in ["open"] can be expired.',
          'session',
        );
      }
      entry.session.status = 'expired';
      entry.session.url = null;
      save();
      return sendJson(res, 200, view(entry, false));
    }
    return undefined;
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL, method: string) {
    const match = /^\/pay\/(cs_[A-Za-z0-9_]+)(?:\/(pay|decline|cancel))?\/?$/.exec(url.pathname);
    if (!match) return undefined;
    const [, id, action] = match;
    const entry = stored(id!);
    if (!entry) return sendHtml(res, 404, renderNotFoundPage());
    if (!action && (method === 'GET' || method === 'HEAD')) {
      const html = renderCheckoutPage(pageView(entry));
      delete entry.promotionError;
      return sendHtml(res, 200, html);
    }
    if (!action || method !== 'POST') return undefined;
    const body = await readBody(req);
    const { session } = entry;
    if (action === 'cancel') {
      log.info(`cancelled on the page: ${id}`);
      return redirect(res, session.cancel_url ?? `/pay/${session.id}`);
    }
    if (session.status === 'expired') return redirect(res, `/pay/${session.id}`);
    if (action === 'pay') {
      const code = String(parseStripeForm(body).promotion_code ?? '').trim();
      try {
        await pay(session.id, code ? { promotionCode: code } : {});
      } catch (error) {
        if (!(error instanceof StripeStyleError) || error.param !== 'promotion_code') throw error;
        entry.promotionError = `“${code}” is not a valid promotion code.`;
        return redirect(res, `/pay/${session.id}`);
      }
      return redirect(res, successUrl(session));
    }
    decline(session.id);
    log.info(`declined (simulated) ${id}`);
    return redirect(res, successUrl(session));
  }

  const server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://local');
    const isApi = url.pathname.startsWith('/v1/');
    void (async () => {
      const handled = isApi
        ? await handleApi(req, res, url, method)
        : await handlePage(req, res, url, method);
      if (handled === undefined && !res.headersSent) {
        if (isApi) {
          throw new StripeStyleError(
            404,
            'invalid_request_error',
            `Unrecognized request URL (${method}: ${url.pathname}).`,
          );
        }
        if (url.pathname === '/favicon.ico') {
          res.writeHead(204);
          return res.end();
        }
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Not found');
      }
    })().catch((error: unknown) => {
      if (res.headersSent) return res.end();
      if (error instanceof StripeStyleError) return sendJson(res, error.status, error.toJSON());
      log.error(`${method} ${url.pathname} failed: ${(error as Error).stack ?? String(error)}`);
      sendJson(
        res,
        500,
        new StripeStyleError(500, 'api_error', 'Something went wrong on the local provider.').toJSON(),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // The page URL uses `localhost`, like the site (`http://localhost:<PORT>`), so the browser sees one host name.
  pageBase = `http://localhost:${port}`;
  const apiUrl = `http://${HOST}:${port}`;
  log.info(`local Checkout provider at ${apiUrl} (hosted pages ${pageBase}/pay/…)`);

  return {
    url: apiUrl,
    port,
    getSession: (id, o = {}) => {
      const entry = stored(id);
      return entry ? view(entry, o.expandLineItems ?? false) : undefined;
    },
    pay,
    refund,
    dispute,
    deliver: send,
    decline,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the local Checkout provider for the local stack, unless a real `STRIPE_SECRET_KEY` is configured (then
 * Stripe itself is used and the environment is left alone). A fresh webhook secret is generated for each start
 * and handed both to the provider (to sign) and to the handlers (to verify); it is never logged.
 *
 * @param configuredEnv the environment the stack was given (`.env`, the shell)
 * @param gatewayUrl the local API, where the signed webhooks go (`<gatewayUrl>/api/webhooks/stripe`)
 * @returns the handler environment (`STRIPE_SECRET_KEY` emptied, `STRIPE_API_BASE`, `STRIPE_WEBHOOK_SECRET`) and
 *   `stop`, or `undefined` when Stripe itself is configured
 */
export async function startLocalPayments(options: {
  configuredEnv: Record<string, string | undefined> | undefined;
  port: number;
  dataDir: string;
  gatewayUrl: string;
  log: PartLog;
}): Promise<{ env: Record<string, string>; stop: () => Promise<void> } | undefined> {
  if (options.configuredEnv?.STRIPE_SECRET_KEY?.trim()) {
    options.log.info('STRIPE_SECRET_KEY is set: payments go to Stripe (local Checkout provider not started)');
    return undefined;
  }
  const webhookSecret = newWebhookSecret();
  const provider = await startCheckoutProvider({
    port: options.port,
    dataDir: options.dataDir,
    webhookUrl: `${options.gatewayUrl}/api/webhooks/stripe`,
    webhookSecret,
    log: options.log,
  });
  return {
    // An empty key overrides one inherited from the shell, so handlers use the provider and never a stray key.
    env: { STRIPE_SECRET_KEY: '', STRIPE_API_BASE: provider.url, STRIPE_WEBHOOK_SECRET: webhookSecret },
    stop: provider.stop,
  };
}
