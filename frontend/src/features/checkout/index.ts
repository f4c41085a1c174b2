/**
 * Checkout: starting a Stripe Checkout purchase from the pricing page and the payment result page Stripe returns
 * to. Import from here (`features/checkout`).
 *
 * - {@link useStartCheckout}: `{ start(pack), pendingPackId }` for the packs' buy buttons.
 * - {@link PaymentResultPage}: the screen for every path starting with `/success`.
 */
export {
  PaymentResultPage,
  PAYMENT_RESULT_TEXT,
  REDIRECT_SECONDS,
  redirectingText,
} from './PaymentResultPage';
export { useStartCheckout, START_CHECKOUT_MESSAGES } from './use-start-checkout';
export type { StartCheckout } from './use-start-checkout';
export { usePaymentVerification, VERIFICATION_FAILED_TOAST } from './use-payment-verification';
export type { PaymentOutcome } from './use-payment-verification';
export { useCountdown } from './use-countdown';
export {
  createCheckoutSession,
  verifyCheckoutSession,
  newIdempotencyKey,
  isTransientError,
  checkoutVerificationQueryKey,
} from './api';
export type { CheckoutSession, CheckoutVerification } from './api';
