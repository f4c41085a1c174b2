/**
 * Checkout: the payment result page Stripe returns to (every path starting with `/success`). Import from here
 * (`features/checkout`). Starting a purchase is shared by the landing and pricing pages: `hooks/use-start-checkout`.
 */
export {
  PaymentResultPage,
  PAYMENT_RESULT_TEXT,
  REDIRECT_SECONDS,
  redirectingText,
} from './components/PaymentResultPage';
