/**
 * The refund policy in the words every screen uses (docs/product-spec.md §2 "Refund policy"; issue 27: a customer
 * about to lose paid credits is told before confirming). Refunds are made in Stripe, and the webhook takes the
 * refunded credits back (docs/architecture.md §2), so unused paid credits are what can be refunded.
 */
export const REFUND_POLICY = {
  /** One paragraph: what can be refunded and how. `email` is the support address. */
  summary: (email: string) =>
    `Credits you bought and have not used can be refunded to your card: e-mail ${email} before you delete your account. Free credits and credits already spent on headshots are not refundable.`,
  /**
   * Credits of headshots that were not delivered come back by themselves (the workflow's refunds,
   * docs/architecture.md §4): failures, the deadline, and the likeness guarantee.
   */
  automatic:
    'Every headshot we do not deliver gives its credits back to your balance automatically: when a generation fails or runs out of time, and when a headshot does not look like you (our likeness guarantee). You do not need to ask.',
  /** How a refund to the card arrives (Stripe: refunds take 5-10 business days to appear on a statement). */
  toCard:
    'We refund through Stripe, to the card you paid with. Banks usually show the refund within 5-10 business days.',
  /** What a refund or a dispute does to the balance (the webhook's reversal, docs/architecture.md §2). */
  reversal:
    "When a payment is refunded, the credits it bought are taken off your balance (a partial refund takes back its share). A payment disputed with your bank has its credits taken back while the dispute is open; they come back if the dispute is decided in the purchase's favor.",
} as const;

/** "1 credit", "87 credits". */
export function creditCount(n: number): string {
  return `${n} ${n === 1 ? 'credit' : 'credits'}`;
}
