import { paymentsWorld } from './payments';

/**
 * The purchase the refund and dispute tests (reversePurchase, restorePurchase) start from: `sub`'s 40 credits for
 * 3,500 cents (the Starter Pack of docs/product-spec.md §9) through the Checkout Session `session`, paid by the
 * payment intent `pi`.
 */
export const PAID_PURCHASE = {
  sub: 'buyer-1',
  session: 'cs_test_1',
  pi: 'pi_1',
  credits: 40,
  amount: 3500,
} as const;

/** Every port of {@link paymentsWorld}. */
type PaymentsPorts = ReturnType<typeof paymentsWorld>['ports'];

/**
 * The payments world with {@link PAID_PURCHASE} fulfilled and its buyer holding `balance` credits (the purchase's
 * included; by default only them), its ports replaced by `overrides` (a failing one, say).
 */
export function paidPurchaseWorld(
  balance: number = PAID_PURCHASE.credits,
  overrides: Partial<PaymentsPorts> = {},
) {
  const world = paymentsWorld();
  const { sub, session, pi, credits, amount } = PAID_PURCHASE;
  world.ledger.seedUser(sub, balance);
  world.purchases.seedPurchase(sub, {
    checkoutSessionId: session,
    credits,
    amountTotal: amount,
    paymentIntentId: pi,
  });
  return { ...world, ports: { ...world.ports, ...overrides } };
}
