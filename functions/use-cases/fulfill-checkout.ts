import { trackServerEvent } from '../adapters/analytics-sink';
import { getUser, grantCredits, readAccountBalance } from '../adapters/ledger';
import { getPendingPurchase, paymentIntentLookupPut, purchaseItem } from '../adapters/purchases';
import { receiptUrlOf, retrieveCheckoutSession } from '../adapters/stripe/checkout-sessions';
import { ensureUser } from '../adapters/user-creation';
import { countMetric } from '../common/metrics';
import { logger } from '../common/logger';
import {
  assessCheckoutSession,
  type CheckoutAssessment,
  type CheckoutSessionLike,
  type CheckoutStatus,
} from '../domain/checkout';
import type { LedgerAccount } from '../domain/ledger-account';
import { checkoutAccount, seatPurchaseFields } from '../domain/team-checkout';
import { sendReceiptMail } from './send-account-mails';

/**
 * "Fulfill checkout": credit a paid Checkout Session once — idempotently, keyed by the session id, from the webhook
 * and the success page alike (Stripe "Fulfill orders"; docs/architecture.md §2 "Fulfilment of a Checkout Session is
 * keyed by the session id"). The domain decides (`assessCheckoutSession`; whose ledger: `checkoutAccount`, a team's
 * for a seat purchase, docs/teams.md "Money"), the ledger applies.
 */

/**
 * What fulfilment needs from the outside world: Stripe, the pending purchase, the ledger, the analytics sink and the
 * receipt e-mail.
 */
export interface FulfillCheckoutPorts {
  /** Stripe's fresh copy of a session, line items expanded (never the browser's word). */
  retrieveCheckoutSession: (sessionId: string) => Promise<CheckoutSessionLike>;
  /** The charge's receipt URL, or null; may throw (a missing receipt never stops crediting). */
  receiptUrlOf: typeof receiptUrlOf;
  getPendingPurchase: typeof getPendingPurchase;
  /** The purchase item put in the grant's transaction (pure: builds the item). */
  purchaseItem: typeof purchaseItem;
  /** The payment intent's lookup item put in the grant's transaction (pure: builds the item). */
  paymentIntentLookupPut: typeof paymentIntentLookupPut;
  getUser: typeof getUser;
  /** The balance of the ledger a session fills (the buyer's or a team's), for an answer that credited nothing. */
  readAccountBalance: typeof readAccountBalance;
  /** Creates the buyer (6 free credits once) when a webhook comes before their first `GET /api/me`. */
  ensureUser: typeof ensureUser;
  grantCredits: typeof grantCredits;
  trackServerEvent: typeof trackServerEvent;
  /**
   * The receipt e-mail of a credited purchase, sent once per session (use-cases/send-account-mails.ts); called on
   * every call for a paid session, so one that failed is tried again. Its failure never stops fulfilment.
   */
  sendReceiptMail: (sub: string, checkoutSessionId: string) => Promise<unknown>;
}

/** The real adapters of {@link FulfillCheckoutPorts} (the verification's ports extend them). */
export const fulfillCheckoutAdapters: FulfillCheckoutPorts = {
  retrieveCheckoutSession,
  receiptUrlOf,
  getPendingPurchase,
  purchaseItem,
  paymentIntentLookupPut,
  getUser,
  readAccountBalance,
  ensureUser,
  grantCredits,
  trackServerEvent,
  sendReceiptMail: (sub, checkoutSessionId) => sendReceiptMail(sub, checkoutSessionId),
};

/** The outcome of {@link fulfillCheckout}. */
export interface FulfillmentResult {
  /** `paid` only when the purchase is credited (by this call or an earlier one). */
  status: CheckoutStatus;
  /** Credits this purchase added: the pack's credits when `paid` (also on a replay), else 0. */
  creditsAdded: number;
  /**
   * The balance of the ledger the session fills after the call, in credits: the buyer's, or the team's for a seat
   * purchase (0 when unknown).
   */
  credits: number;
  /** True only for the one call that wrote the purchase and the credit. */
  applied: boolean;
}

/**
 * Fulfils an already retrieved session (see {@link fulfillCheckout}); the success page's verification uses it after
 * its ownership check so it retrieves the session once.
 *
 * @param options.email fallback e-mail to create the buyer's user item with when the session carries none
 * @throws {Error} when a paid session's buyer does not exist yet and no e-mail is known to create them
 */
export async function fulfillSession(
  session: CheckoutSessionLike,
  options: { email?: string | undefined } = {},
  ports: FulfillCheckoutPorts = fulfillCheckoutAdapters,
): Promise<FulfillmentResult> {
  // The pending purchase recorded at creation, under the ledger the session fills, decides what the session is worth
  // (not today's price list).
  const account = checkoutAccount(session);
  const expected = account ? await ports.getPendingPurchase(account, session.id) : undefined;
  const verdict = assessCheckoutSession(session, expected);
  if (verdict.kind !== 'fulfil' || !account) return notCredited(session, verdict, account, ports);

  const { sub, packId, credits } = verdict;
  if (!expected)
    logger.warn("Checkout Session without a pending purchase: checked against today's pack", {
      checkoutSessionId: session.id,
    });
  // A webhook can arrive before the buyer's first GET /api/me: make sure their user item exists (6 free credits once)
  // when the credits are theirs; a team's ledger exists with the team.
  if (account.kind === 'user' && !(await ports.getUser(sub))) {
    const email = verdict.email ?? options.email;
    if (!email) throw new Error(`Cannot create the buyer of ${session.id}: no e-mail known`);
    await ports.ensureUser(sub, email);
  }
  const receiptUrl = verdict.paymentIntentId
    ? await receiptOrNull(verdict.paymentIntentId, session.id, ports)
    : null;
  const team = seatPurchaseFields(account, expected, { sub, email: verdict.email ?? options.email });
  const purchase = ports.purchaseItem(account, {
    receiptUrl,
    checkoutSessionId: session.id,
    packId,
    credits,
    amountTotal: verdict.amountTotal,
    currency: verdict.currency,
    paymentIntentId: verdict.paymentIntentId,
    ...(team ? { team } : {}),
  });
  // One transaction: balance + ledger entry + idempotency marker (ref = session id) + the purchase item + the
  // payment intent's lookup item (refunds and disputes find the purchase, and its ledger, through it).
  const teamId = account.kind === 'team' ? account.teamId : undefined;
  const result = await ports.grantCredits({
    account,
    amount: credits,
    ref: session.id,
    related: { item: purchase },
    extraItems: verdict.paymentIntentId
      ? [ports.paymentIntentLookupPut(verdict.paymentIntentId, sub, session.id, teamId)]
      : [],
  });
  if (result.applied) {
    logger.info('Checkout Session fulfilled', {
      checkoutSessionId: session.id,
      packId,
      credits,
      amountTotal: verdict.amountTotal,
    });
    countMetric('PurchasesCredited');
    await ports.trackServerEvent('purchase_completed', sub, { packId, credits });
  }
  // After the credits landed, never before: a mail that fails leaves them credited (issue 35). A seat purchase has no
  // receipt e-mail of ours (it finds no purchase of the buyer's and sends nothing): Stripe's receipt is in the team's
  // purchase history.
  await ports
    .sendReceiptMail(sub, session.id)
    .catch((error: unknown) =>
      logger.error('Receipt e-mail not sent', { checkoutSessionId: session.id, error: String(error) }),
    );
  return { status: 'paid', creditsAdded: credits, credits: result.balance, applied: result.applied };
}

/**
 * The answer for a session that is not credited: not paid (yet), or paid but not what was recorded for it (logged and
 * counted as `PaidNotCredited`, for a person to look at), with the balance of the ledger it names.
 */
async function notCredited(
  session: CheckoutSessionLike,
  verdict: CheckoutAssessment,
  account: LedgerAccount | undefined,
  ports: Pick<FulfillCheckoutPorts, 'readAccountBalance'>,
): Promise<FulfillmentResult> {
  const invalid =
    verdict.kind === 'invalid'
      ? verdict.reason
      : verdict.kind === 'fulfil'
        ? 'no ledger to credit'
        : undefined;
  if (invalid !== undefined) {
    logger.error('Checkout Session not credited: it does not match the purchase recorded for it', {
      checkoutSessionId: session.id,
      paymentStatus: session.payment_status,
      reason: invalid,
    });
    countMetric('PaidNotCredited');
  }
  const status = verdict.kind === 'not-paid' ? verdict.status : 'invalid';
  const balance = account ? await ports.readAccountBalance(account) : undefined;
  return { status, creditsAdded: 0, credits: balance?.balance ?? 0, applied: false };
}

/**
 * `fulfillCheckout(sessionId)` of Stripe's "Fulfill orders" guide: retrieves the session (line items expanded),
 * requires `payment_status === 'paid'` (or a 100 % promotion code), checks it against the pending purchase recorded
 * at creation (see `assessCheckoutSession`), and in ONE DynamoDB transaction puts the purchase item
 * (`attribute_not_exists(SK)`) and grants the credits through the ledger. Safe to call any number of times,
 * concurrently, from the webhook and the success page: a second call changes nothing and returns the current balance.
 *
 * @returns `{ status, creditsAdded, credits, applied }`; `status` is `paid` only when credited
 * @throws the SDK's `StripeError`s when Stripe cannot be reached (callers answer 5xx so Stripe retries the webhook)
 */
export async function fulfillCheckout(
  sessionId: string,
  ports: FulfillCheckoutPorts = fulfillCheckoutAdapters,
): Promise<FulfillmentResult> {
  return fulfillSession(await ports.retrieveCheckoutSession(sessionId), {}, ports);
}

/** The charge's receipt URL; a Stripe failure here never stops crediting a paid session (the history shows none). */
async function receiptOrNull(
  paymentIntentId: string,
  checkoutSessionId: string,
  ports: Pick<FulfillCheckoutPorts, 'receiptUrlOf'>,
): Promise<string | null> {
  try {
    return await ports.receiptUrlOf(paymentIntentId);
  } catch (error) {
    logger.warn('No receipt URL for a paid Checkout Session', { checkoutSessionId, error: String(error) });
    return null;
  }
}
