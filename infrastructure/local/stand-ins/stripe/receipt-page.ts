import { escapeHtml, formatMoney, STYLE } from './hosted-page';
import type { StoredSession } from './session-store';

/**
 * The receipt page a charge's `receipt_url` opens (Stripe's is hosted at `pay.stripe.com/receipts/…` and kept
 * current with refunds: https://docs.stripe.com/receipts): the merchant, the date, what was bought, the amount
 * paid and any amount refunded. No script, like the checkout page.
 */
export function renderReceiptPage(entry: StoredSession, merchantName: string): string {
  const charge = entry.charge!;
  const money = (minor: number) => escapeHtml(formatMoney(minor, charge.currency));
  const date = new Date(charge.created * 1000).toUTCString().replace(/ GMT$/, ' UTC');
  const items = entry.lineItems
    .map((li) => `<li><span class="item-name">${escapeHtml(li.description)}</span> × ${li.quantity}</li>`)
    .join('');
  const refunded =
    charge.amountRefunded > 0 ? `<p class="meta">Refunded: ${money(charge.amountRefunded)}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt from ${escapeHtml(merchantName)} · Local test checkout</title><style>${STYLE}</style></head>
<body><div class="test-banner" role="note"><span class="pill">Test mode</span><span><strong>Local test checkout</strong></span></div>
<main class="layout"><section class="panel"><h1>Receipt from ${escapeHtml(merchantName)}</h1>
<p class="meta">Paid ${money(charge.amount)} on ${escapeHtml(date)}</p>${refunded}
<ul>${items}</ul><p class="meta">Receipt ${escapeHtml(charge.id)} · payment ${escapeHtml(charge.paymentIntentId)}</p></section></main>
</body></html>`;
}
