import { RecordingAnalytics } from './analytics';
import { FakeLedger } from './ledger';
import { FakePurchases } from './purchases';
import { FakeQuotas } from './quotas';
import { FakeStripe } from './stripe';

/**
 * The money paths' world in memory: a ledger that keeps balances, the purchases and their reversals over it, Stripe
 * Checkout, the quota counters and the analytics sink — with `ports`, every port the payment use cases take
 * (buy, verify, fulfil, reverse, restore), wired to them.
 */
export function paymentsWorld() {
  const ledger = new FakeLedger();
  const purchases = new FakePurchases(ledger);
  const stripe = new FakeStripe();
  const quotas = new FakeQuotas();
  const analytics = new RecordingAnalytics();
  const ports = {
    getUser: ledger.getUser,
    ensureUser: ledger.ensureUser,
    grantCredits: ledger.grantCredits,
    reverseCredits: ledger.reverseCredits,
    restoreCredits: ledger.restoreCredits,
    putPendingPurchase: purchases.putPendingPurchase,
    getPendingPurchase: purchases.getPendingPurchase,
    purchaseItem: purchases.purchaseItem,
    paymentIntentLookupPut: purchases.paymentIntentLookupPut,
    findPaymentIntent: purchases.findPaymentIntent,
    getPurchase: purchases.getPurchase,
    readAllPurchases: purchases.readAllPurchases,
    purchaseReversalUpdate: purchases.purchaseReversalUpdate,
    writePurchaseState: purchases.writePurchaseState,
    shortfallFlag: purchases.shortfallFlag,
    flagUncoveredReversal: purchases.flagUncoveredReversal,
    createCheckoutSession: stripe.createCheckoutSession,
    expireCheckoutSession: stripe.expireCheckoutSession,
    retrieveCheckoutSession: stripe.retrieveCheckoutSession,
    receiptUrlOf: stripe.receiptUrlOf,
    consumeQuota: quotas.consumeQuota,
    trackServerEvent: analytics.trackServerEvent,
  };
  return { ledger, purchases, stripe, quotas, analytics, ports };
}
