import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { STRIPE_API_VERSION } from '../../../../functions/adapters/stripe/client';
import type { PartLog } from '../../support/log';
import { chargeObject, refundObject } from './charges';
import { stripeId } from './events';
import type { PaymentActions } from './payment-actions';
import { newCheckoutSession } from './session-object';
import { lineItemList, sessionView, type SessionStore } from './session-store';
import {
  parseStripeForm,
  readFormBody,
  StripeStyleError,
  validateCreateParams,
  type ProviderRequest,
} from './wire';

/** What the API routes work on. */
export interface ApiContext {
  store: SessionStore;
  actions: PaymentActions;
  /** The hosted page's origin (`http://localhost:<port>`), known once the server listens. */
  pageBase: () => string;
  log: PartLog;
}

/** Writes a JSON answer with the headers Stripe's API sends (`request-id`, `stripe-version`). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-cache, no-store',
    'request-id': stripeId('req_', 14),
    'stripe-version': STRIPE_API_VERSION,
  });
  res.end(JSON.stringify(body));
}

/**
 * Answers one `/v1/…` request of Stripe's API (see server.ts for the routes); `undefined` when no route matches.
 *
 * @throws {StripeStyleError} 401 without a bearer key, 404 for an unknown session or payment intent, 400 for
 *   invalid parameters or a reused Idempotency-Key with other parameters, 413 for a body over 256 KiB.
 */
export async function handleApi(request: ProviderRequest, context: ApiContext): Promise<void | undefined> {
  const { req, res, url, method } = request;
  const { store, actions, pageBase, log } = context;
  if (!/^Bearer\s+\S+/i.test(req.headers.authorization ?? '')) {
    throw new StripeStyleError(
      401,
      'invalid_request_error',
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  const parts = url.pathname.split('/').filter(Boolean); // ['v1', 'checkout', 'sessions', id?, action?]
  if (parts.length === 2 && parts[1] === 'refunds' && method === 'POST') {
    const form = parseStripeForm(await readFormBody(req));
    const intent = String(form.payment_intent ?? '');
    const entry = store.all().find((e) => e.charge?.paymentIntentId === intent);
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
    await actions.refund(entry.session.id, { amount });
    const charge = entry.charge!;
    return sendJson(res, 200, refundObject(charge, charge.refunds.at(-1)!));
  }
  if (parts.length === 2 && parts[1] === 'charges' && method === 'GET') {
    // List all charges, filtered by `payment_intent` (https://docs.stripe.com/api/charges/list).
    const intent = parseStripeForm(url.search.slice(1)).payment_intent;
    const entries = store
      .all()
      .filter((e) => e.charge && (intent === undefined || e.charge.paymentIntentId === intent));
    return sendJson(res, 200, {
      object: 'list',
      data: entries.map((e) =>
        chargeObject(e.charge!, e.session.metadata as Record<string, string>, pageBase()),
      ),
      has_more: false,
      url: '/v1/charges',
    });
  }
  if (parts[1] !== 'checkout' || parts[2] !== 'sessions' || parts.length > 5) return undefined;
  const [, , , id, action] = parts;
  if (!id && method === 'POST') {
    const body = await readFormBody(req);
    const key = req.headers['idempotency-key'];
    const hash = createHash('sha256').update(body).digest('hex');
    const previous = typeof key === 'string' ? store.idempotent(key) : undefined;
    if (previous) {
      if (previous.hash !== hash) {
        throw new StripeStyleError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      }
      return sendJson(res, 200, sessionView(store.mustGet(previous.sessionId), false));
    }
    const params = validateCreateParams(parseStripeForm(body));
    const entry = store.add(newCheckoutSession(params, pageBase()));
    if (typeof key === 'string') {
      store.rememberKey(key, hash, entry.session.id);
    }
    store.save();
    log.info(`created ${entry.session.id} (${entry.session.amount_total} ${entry.session.currency})`);
    return sendJson(res, 200, sessionView(entry, params.expand?.includes('line_items') ?? false));
  }
  if (id && !action && method === 'GET') {
    const expand = parseStripeForm(url.search.slice(1)).expand;
    const expandLineItems = Array.isArray(expand) && expand.includes('line_items');
    return sendJson(res, 200, sessionView(store.mustGet(id), expandLineItems));
  }
  if (id && action === 'line_items' && method === 'GET')
    return sendJson(res, 200, lineItemList(store.mustGet(id)));
  if (id && action === 'expire' && method === 'POST') {
    await readFormBody(req);
    const entry = store.mustGet(id);
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
    store.save();
    return sendJson(res, 200, sessionView(entry, false));
  }
  return undefined;
}
