import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, expect, inject, vi } from 'vitest';
import { listLedger } from '../../functions/adapters/ledger';
import { resetStripeClientForTests, stripeClientSettings } from '../../functions/adapters/stripe/client';
import { resetConfigForTests } from '../../functions/config/settings';
import { stripeSettings } from '../../functions/config/stripe';
import { routes } from '../../functions/http/routes';
import {
  newWebhookSecret,
  startCheckoutProvider,
  type CheckoutProvider,
} from '../../infrastructure/local/stand-ins/stripe/server';
import { createPartLog } from '../../infrastructure/local/support/log';
import { createTestUser, type TestUser } from './cognito';
import { expectLedgerBalanced } from './ledger';
import { userItems } from './table';
import { startRouteGateway } from './route-gateway';

/*
 * The payment routes behind a gateway of the test file's own, the local Checkout provider (the Stripe stand-in) with
 * a webhook secret of its own, and the real `stripe` SDK pointed at it — on the shared stack's DynamoDB Local and
 * cognito-local. The handlers run in the test process, configured for this provider, so each test decides when,
 * how often and how a webhook is delivered.
 */

/**
 * The payment routes: Checkout Sessions, the Stripe webhook, `/api/me` (to create a buyer), the purchase history, and
 * the team routes (a team's seats are bought and listed there).
 */
export const PAYMENT_ROUTES = routes.filter(
  (r) =>
    r.path.startsWith('/api/checkout/') ||
    r.path === '/api/webhooks/stripe' ||
    r.path === '/api/me' ||
    r.path === '/api/purchases' ||
    r.path.startsWith('/api/teams'),
);

/** A running payments stack. */
export interface PaymentsStack {
  gatewayUrl: string;
  /** The Stripe stand-in; replaced by {@link PaymentsStack.restartProvider}. */
  provider: CheckoutProvider;
  /** The real SDK, configured exactly as the handlers configure it, without retries. */
  stripe: Stripe;
  /** The `whsec_…` secret the provider signs with and the handlers verify with. */
  webhookSecret: string;
  /** Starts the provider again on its port, with the sessions it kept on disk (after a test stopped it). */
  restartProvider(): Promise<CheckoutProvider>;
  /** A request to the gateway, with `token` as bearer and a JSON content type when there is a body. */
  api(path: string, token?: string, init?: RequestInit): Promise<Response>;
  /** `POST /api/checkout/sessions` for `user` (default: the Popular pack); expects 200. */
  createSession(
    user: TestUser,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ id: string; url: string }>;
  /** A {@link newBuyer} whose user item exists: `GET /api/me` through this gateway answered 200 (6 credits). */
  buyer(): Promise<TestUser>;
  /** `GET /api/checkout/sessions/{id}` as `user` (what the success page calls). */
  verify(user: TestUser, id: string): Promise<Response>;
  /** A webhook delivery signed with this stack's secret unless `options` tamper with it (see {@link deliverWebhook}). */
  deliver(payload: string, options?: Partial<Parameters<typeof deliverWebhook>[2]>): Promise<Response>;
  /** Pays a session on the provider without delivering the webhook; the event Stripe would send, as JSON text. */
  paidEvent(id: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the payments stack and points the handlers' configuration at it.
 *
 * @param options.deliverWebhooks the provider posts its events to the gateway (Pay, refunds, disputes); otherwise
 *   the test delivers (and tampers with) every event itself
 * @param options.keepSessions the provider keeps its sessions in a temporary directory (removed at stop), so a
 *   restarted provider still has them
 */
export async function startPaymentsStack(options: {
  deliverWebhooks: boolean;
  keepSessions?: boolean;
}): Promise<PaymentsStack> {
  const webhookSecret = newWebhookSecret();
  const dataDir = options.keepSessions ? mkdtempSync(join(tmpdir(), 'payments-test-')) : undefined;
  const gateway = await startRouteGateway({ routes: PAYMENT_ROUTES });
  const log = createPartLog('checkout', { quiet: true });
  const startProvider = (port: number) =>
    startCheckoutProvider({
      port,
      dataDir,
      webhookSecret,
      log,
      ...(options.deliverWebhooks ? { webhookUrl: `${gateway.url}/api/webhooks/stripe` } : {}),
    });
  const provider = await startProvider(0);
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: '',
    STRIPE_API_BASE: provider.url,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  });
  resetConfigForTests();
  resetStripeClientForTests();
  const settings = stripeClientSettings(stripeSettings());
  const stack: PaymentsStack = {
    gatewayUrl: gateway.url,
    provider,
    stripe: new Stripe(settings.key, { ...settings.options, maxNetworkRetries: 0 }),
    webhookSecret,
    async restartProvider() {
      stack.provider = await startProvider(stack.provider.port);
      return stack.provider;
    },
    api: (path, token, init = {}) =>
      fetch(`${gateway.url}${path}`, {
        ...init,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.headers as Record<string, string> | undefined),
        },
      }),
    createSession: (user, body, headers) => createCheckoutSession(gateway.url, user, body, headers),
    async buyer() {
      const user = await newBuyer();
      expect((await stack.api('/api/me', user.idToken)).status).toBe(200);
      return user;
    },
    verify: (user, id) => stack.api(`/api/checkout/sessions/${id}`, user.idToken),
    deliver: (payload, tamper = {}) =>
      deliverWebhook(gateway.url, payload, { secret: webhookSecret, ...tamper }),
    async paidEvent(id) {
      const { event } = await stack.provider.pay(id, { deliver: false });
      return JSON.stringify(event, null, 2);
    },
    async stop() {
      await gateway.stop();
      await stack.provider.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/**
 * POSTs `payload` to `<gatewayUrl>/api/webhooks/stripe` with a `Stripe-Signature` built like Stripe's (the SDK's
 * `generateTestHeaderString`: now, with `secret`) — or the given `header` (`null`: none), `timestamp`, `body` and
 * `contentType`, to tamper with it.
 */
export function deliverWebhook(
  gatewayUrl: string,
  payload: string,
  options: {
    secret: string;
    timestamp?: number;
    body?: string;
    contentType?: string;
    header?: string | null;
  },
): Promise<Response> {
  const header =
    options.header !== undefined
      ? options.header
      : Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret,
          ...(options.timestamp ? { timestamp: options.timestamp } : {}),
        });
  return fetch(`${gatewayUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json; charset=utf-8',
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    body: options.body ?? payload,
  });
}

/** Creates a Checkout Session for `user` through the API (`POST /api/checkout/sessions`); expects 200. */
export async function createCheckoutSession(
  gatewayUrl: string,
  user: TestUser,
  body: unknown = { packId: 'popular' },
  headers: Record<string, string> = {},
): Promise<{ id: string; url: string }> {
  const res = await fetch(`${gatewayUrl}/api/checkout/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; url: string };
}

/** Every purchase item (`PURCHASE#…`) of `sub`, read consistently. */
export const purchasesOf = (sub: string) => userItems(sub, 'PURCHASE#');

/** The ledger entries of `sub` with reason `purchase`. */
export const purchaseEntries = async (sub: string) =>
  (await listLedger(sub)).filter((e) => e.reason === 'purchase');

/**
 * Starts a payments stack before the file's tests and stops it after them, and restores every mock before each test
 * (tests spy on the logger). The returned object reads through to the running stack, so tests use
 * `payments.provider`, `payments.api(…)` and the rest directly.
 */
export function usePaymentsStack(options: Parameters<typeof startPaymentsStack>[0]): PaymentsStack {
  let stack: PaymentsStack | undefined;
  beforeAll(async () => {
    stack = await startPaymentsStack(options);
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(() => {
    vi.restoreAllMocks();
  });
  return new Proxy({} as PaymentsStack, {
    get(_, key: keyof PaymentsStack) {
      if (!stack) throw new Error('The payments stack is not started yet (use it inside a test or hook)');
      return stack[key];
    },
  });
}

/** A new user in the shared stack's user pool (the post-confirmation trigger gives them 6 credits). */
export function newBuyer(): Promise<TestUser> {
  const { runtimeConfig } = inject('localStack');
  return createTestUser({ userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId });
}

/**
 * Asserts that a new buyer's session credited nothing: the success page's verification answers `status` with no
 * credits added (the buyer keeps their 6 sign-up credits), no purchase was recorded, and credits = Σ ledger.
 */
export async function expectNothingCredited(
  payments: PaymentsStack,
  user: TestUser,
  sessionId: string,
  status: string,
): Promise<void> {
  expect(await (await payments.verify(user, sessionId)).json()).toEqual({
    status,
    creditsAdded: 0,
    credits: 6,
  });
  expect(await purchasesOf(user.sub)).toEqual([]);
  await expectLedgerBalanced(user.sub);
}
