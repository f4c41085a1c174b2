import type { ServerResponse } from 'node:http';
import { STRIPE_API_VERSION } from '../../../../functions/adapters/stripe/client';
import type { PartLog } from '../../support/log';
import { LOCAL_PROMOTION_CODES } from './charges';
import { renderCheckoutPage, renderNotFoundPage, type CheckoutPageView } from './hosted-page';
import { renderReceiptPage } from './receipt-page';
import type { PaymentActions } from './payment-actions';
import { successUrl, type SessionStore, type StoredSession } from './session-store';
import { parseStripeForm, readFormBody, StripeStyleError, type ProviderRequest } from './wire';

/** What the hosted page's routes work on. */
export interface PageContext {
  store: SessionStore;
  actions: PaymentActions;
  /** The shop name on the page. */
  merchantName: string;
  log: PartLog;
}

/** Writes an HTML page with the strict headers of a payment page (no script, no framing, no referrer). */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
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

function pageView(entry: StoredSession, merchantName: string): CheckoutPageView {
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
    returnUrl: session.status === 'complete' ? successUrl(entry) : session.cancel_url,
    apiVersion: STRIPE_API_VERSION,
  };
}

/**
 * Answers one request for the hosted checkout page (`GET /pay/:id`) or one of its buttons (`POST /pay/:id/pay |
 * decline | cancel`, each a 303 redirect); `undefined` when no route matches.
 */
export async function handlePage(request: ProviderRequest, context: PageContext): Promise<void | undefined> {
  const { req, res, url, method } = request;
  const { store, actions, merchantName, log } = context;
  const receipt = /^\/receipts\/(ch_[A-Za-z0-9_]+)\/?$/.exec(url.pathname);
  if (receipt && (method === 'GET' || method === 'HEAD')) {
    const entry = store.all().find((e) => e.charge?.id === receipt[1]);
    if (!entry?.charge) return sendHtml(res, 404, renderNotFoundPage());
    return sendHtml(res, 200, renderReceiptPage(entry, merchantName));
  }
  const match = /^\/pay\/(cs_[A-Za-z0-9_]+)(?:\/(pay|decline|cancel))?\/?$/.exec(url.pathname);
  if (!match) return undefined;
  const [, id, action] = match;
  const entry = store.get(id!);
  if (!entry) return sendHtml(res, 404, renderNotFoundPage());
  if (!action && (method === 'GET' || method === 'HEAD')) {
    const html = renderCheckoutPage(pageView(entry, merchantName));
    delete entry.promotionError;
    return sendHtml(res, 200, html);
  }
  if (!action || method !== 'POST') return undefined;
  const body = await readFormBody(req);
  const { session } = entry;
  if (action === 'cancel') {
    log.info(`cancelled on the page: ${id}`);
    return redirect(res, session.cancel_url ?? `/pay/${session.id}`);
  }
  if (session.status === 'expired') return redirect(res, `/pay/${session.id}`);
  if (action === 'pay') {
    const code = String(parseStripeForm(body).promotion_code ?? '').trim();
    try {
      await actions.pay(session.id, code ? { promotionCode: code } : {});
    } catch (error) {
      if (!(error instanceof StripeStyleError) || error.param !== 'promotion_code') throw error;
      entry.promotionError = `“${code}” is not a valid promotion code.`;
      return redirect(res, `/pay/${session.id}`);
    }
    return redirect(res, successUrl(entry));
  }
  actions.decline(session.id);
  log.info(`declined (simulated) ${id}`);
  // As Stripe's hosted page: a declined card never leaves Checkout (the success URL is only for a completed
  // session); the page says so in place and the buyer tries another card or goes back through `cancel_url`
  // (docs.stripe.com/declines, docs.stripe.com/api/checkout/sessions/object#checkout_session_object-cancel_url).
  return redirect(res, `/pay/${session.id}`);
}
