import { sendReceiptMail } from '../../../../functions/use-cases/send-account-mails';
import { RecordingAnalytics } from './analytics';
import { accountMailWorld } from './mail-markers';
import { FakeLedger, type FakeTeamHead } from './ledger';
import { FakePurchases } from './purchases';
import { FakeQuotas } from './quotas';
import { FakeStripe } from './stripe';

/**
 * The money paths' world in memory: a ledger that keeps balances, the purchases and their reversals over it, Stripe
 * Checkout, the quota counters, the analytics sink and the receipt e-mail's mailer and markers (`mail`) — with `ports`, every port the payment use cases take
 * (buy, verify, fulfil, reverse, restore), wired to them. `teams`: the team items whose ledgers it keeps too (a team
 * store's map: fakes/team-payments.ts).
 */
export function paymentsWorld(teams?: Map<string, FakeTeamHead>) {
  const ledger = new FakeLedger(teams);
  const purchases = new FakePurchases(ledger);
  const stripe = new FakeStripe();
  const quotas = new FakeQuotas();
  const analytics = new RecordingAnalytics();
  const mail = accountMailWorld(ledger, purchases);
  const ports = {
    getUser: ledger.getUser,
    readAccountBalance: ledger.readAccountBalance,
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
    sendReceiptMail: (sub: string, checkoutSessionId: string) =>
      sendReceiptMail(sub, checkoutSessionId, mail.ports),
  };
  return { ledger, purchases, stripe, quotas, analytics, mail, ports };
}
