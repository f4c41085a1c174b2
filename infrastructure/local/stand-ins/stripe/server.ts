import { createServer } from 'node:http';
import type { PartLog } from '../../support/log';
import { closeServer, listen } from '../../support/http';
import { HOST } from '../../support/ports';
import { handleApi, sendJson } from './api-routes';
import { handlePage } from './page-routes';
import { createPaymentActions, type PaymentActions } from './payment-actions';
import { SessionStore, sessionView } from './session-store';
import { StripeStyleError } from './wire';

export { checkoutEvent, deliverWebhook, newWebhookSecret, stripeId } from './events';
export { parseStripeForm, StripeStyleError, validateCreateParams } from './wire';

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
export interface CheckoutProvider extends Omit<PaymentActions, 'send'> {
  /** The API base the SDK is pointed at, `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The session in Stripe's shape (`expand: ['line_items']` adds them), or `undefined`. */
  getSession(id: string, options?: { expandLineItems?: boolean }): Record<string, unknown> | undefined;
  /** Signs and posts an event (a replay, or one held back) to the webhook URL; resolves with the HTTP status. */
  deliver: PaymentActions['send'];
  stop(): Promise<void>;
}

/**
 * Starts the local Checkout provider on loopback (see the file comment for what it serves).
 *
 * @throws when the port cannot be bound
 */
export async function startCheckoutProvider(options: CheckoutProviderOptions): Promise<CheckoutProvider> {
  const { log } = options;
  const store = new SessionStore(options.dataDir);
  const actions = createPaymentActions({
    store,
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret,
    log,
  });
  let pageBase = '';
  const api = { store, actions, pageBase: () => pageBase, log };
  const page = { store, actions, merchantName: options.merchantName ?? 'Headshot Studio', log };

  const server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://local');
    const isApi = url.pathname.startsWith('/v1/');
    void (async () => {
      const handled = isApi
        ? await handleApi({ req, res, url, method }, api)
        : await handlePage({ req, res, url, method }, page);
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

  const apiUrl = await listen(server, options.port, HOST);
  const port = Number(new URL(apiUrl).port);
  // The page URL uses `localhost`, like the site (`http://localhost:<PORT>`), so the browser sees one host name.
  pageBase = `http://localhost:${port}`;
  log.info(`local Checkout provider at ${apiUrl} (hosted pages ${pageBase}/pay/…)`);

  return {
    url: apiUrl,
    port,
    getSession: (id, o = {}) => {
      const entry = store.get(id);
      return entry ? sessionView(entry, o.expandLineItems ?? false) : undefined;
    },
    pay: actions.pay,
    refund: actions.refund,
    dispute: actions.dispute,
    closeDispute: actions.closeDispute,
    failRefund: actions.failRefund,
    deliver: actions.send,
    decline: actions.decline,
    // Stopping twice is fine: the second close's "not running" error means it is already stopped.
    stop: () => closeServer(server).catch(() => undefined),
  };
}
