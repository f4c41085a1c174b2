/**
 * The refund policy in the words every screen uses (docs/product-spec.md §2 "Refund policy"; issue 27: a customer
 * about to lose paid credits is told before confirming). Refunds are made in Stripe, and the webhook takes the
 * refunded credits back (docs/architecture.md §2), so unused paid credits are what can be refunded.
 */
export const REFUND_POLICY = {
  /** One paragraph: what can be refunded and how. `email` is the support address. */
  summary: (email: string) =>
    `Credits you bought and have not used can be refunded to your card: e-mail ${email} before you delete your account. Free credits and credits already spent on headshots are not refundable.`,
} as const;

/** "1 credit", "87 credits". */
export function creditCount(n: number): string {
  return `${n} ${n === 1 ? 'credit' : 'credits'}`;
}
