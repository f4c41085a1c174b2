/**
 * The local Checkout provider's hosted payment page (see server.ts): one self-contained HTML document, no
 * external assets or scripts, that stands in for Stripe's hosted Checkout page when no Stripe key is configured.
 */

/** What the page shows. Amounts are in the currency's minor unit (cents). */
export interface CheckoutPageView {
  sessionId: string;
  merchantName: string;
  state: 'open' | 'complete' | 'expired';
  currency: string;
  /** Cents. */
  amountTotal: number;
  customerEmail: string | null;
  lineItems: { name: string; description: string | null; quantity: number; amountTotal: number }[];
  /** Unix seconds. */
  expiresAt: number;
  /** The last attempt was declined (Decline pressed). */
  declined: boolean;
  /** Whether the session accepts promotion codes (`allow_promotion_codes`), and the last refusal to show. */
  promotionCodes?: { allowed: boolean; error: string | null; examples: string[] };
  /** Form targets (POST) of the three buttons. */
  actions: { pay: string; decline: string; cancel: string };
  /** Where "Return to …" links go on the paid/expired views. */
  returnUrl: string | null;
  apiVersion: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Formats minor units as money, e.g. `(4500, 'usd')` → `$45.00` (zero-decimal currencies respected). */
export function formatMoney(minor: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

export const STYLE = `
:root{--ink:#1a1f36;--muted:#4f566b;--line:#e3e8ee;--bg:#f6f9fc;--brand:#4f46e5;--brand-dark:#3730a3;--danger:#b42318;
--warn-bg:#fff8eb;--warn-line:#f5c26b;--warn-ink:#663c00;--ok:#067647;--radius:12px;
font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);
line-height:1.5;-webkit-font-smoothing:antialiased}
*{box-sizing:border-box}body{margin:0;background:var(--bg);min-height:100vh}
.test-banner{display:flex;gap:.75rem;align-items:center;justify-content:center;flex-wrap:wrap;padding:.625rem 1rem;
background:var(--warn-bg);border-bottom:1px solid var(--warn-line);color:var(--warn-ink);font-size:.875rem;text-align:center}
.pill{display:inline-block;padding:.125rem .5rem;border-radius:999px;background:#ffb020;color:#3d2400;font-weight:700;
font-size:.6875rem;letter-spacing:.06em;text-transform:uppercase}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.layout{max-width:980px;margin:0 auto;padding:2.5rem 1.25rem 3rem;display:grid;gap:2.5rem;
grid-template-columns:minmax(0,1fr);align-items:start}.layout>*{min-width:0}
@media (min-width:860px){.layout{grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:4rem;padding-top:4rem}}
.merchant{display:flex;align-items:center;gap:.75rem;font-weight:600;color:var(--muted)}
.mark{width:36px;height:36px;border-radius:10px;background:linear-gradient(135deg,#4f46e5,#7c3aed);display:grid;
place-items:center;color:#fff;font-size:.9rem;font-weight:700;letter-spacing:.02em}
.eyebrow{margin:2rem 0 .25rem;color:var(--muted);font-size:1rem;font-weight:500}
h1{margin:0;font-size:2.5rem;line-height:1.15;font-weight:700;letter-spacing:-.02em}
.items{margin:2rem 0 0;padding:0;list-style:none;border-top:1px solid var(--line)}
.item{display:grid;grid-template-columns:1fr auto;gap:.25rem 1rem;padding:1rem 0;border-bottom:1px solid var(--line)}
.item-name{font-weight:600}.item-desc{grid-column:1;color:var(--muted);font-size:.875rem}
.item-qty{grid-column:1;color:var(--muted);font-size:.8125rem}.item-amount{grid-row:1;grid-column:2;font-weight:600}
.totals{margin:0;padding:1rem 0}.totals div{display:flex;justify-content:space-between;padding:.25rem 0;color:var(--muted)}
.totals dt,.totals dd{margin:0}.totals .due{color:var(--ink);font-weight:700;font-size:1.0625rem;padding-top:.75rem}
.panel{background:#fff;border:1px solid var(--line);border-radius:var(--radius);padding:1.75rem;
box-shadow:0 1px 2px rgba(16,24,40,.04),0 12px 32px -12px rgba(50,50,93,.18)}
h2{margin:0 0 1.25rem;font-size:1.25rem}
.field{margin-bottom:1.125rem}.label{display:block;font-size:.8125rem;font-weight:600;color:var(--muted);margin-bottom:.375rem}
.value{border:1px solid var(--line);border-radius:8px;padding:.625rem .75rem;background:#fafbfc;overflow-wrap:anywhere}
.card{padding:0}.card-row{display:flex;justify-content:space-between;align-items:center;gap:.75rem;
padding:.625rem .75rem;border-bottom:1px solid var(--line)}
.card-split{display:grid;grid-template-columns:1fr 1fr}.card-split span{padding:.625rem .75rem}
.card-split span+span{border-left:1px solid var(--line)}
.brand{font-weight:800;font-style:italic;color:#1a1f71;letter-spacing:.02em}
.digits{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.04em;white-space:nowrap}
.meta{color:var(--muted);font-size:.875rem}
.hint{margin:.375rem 0 0;color:var(--muted);font-size:.8125rem}
.alert{border-radius:8px;padding:.75rem 1rem;margin-bottom:1.25rem;font-size:.9375rem}
.alert-error{background:#fef3f2;border:1px solid #fecdca;color:var(--danger)}
.alert-ok{background:#ecfdf3;border:1px solid #abefc6;color:var(--ok)}
.actions{display:grid;gap:.75rem;margin-top:1.5rem}.actions form{margin:0}
button,.button{width:100%;display:inline-flex;justify-content:center;align-items:center;gap:.5rem;min-height:48px;
padding:.75rem 1rem;border-radius:8px;font:inherit;font-weight:600;font-size:1rem;cursor:pointer;text-decoration:none;
border:1px solid transparent;transition:background-color .15s,box-shadow .15s}
.primary{background:var(--brand);color:#fff;box-shadow:0 1px 2px rgba(16,24,40,.12)}
.primary:hover{background:var(--brand-dark)}
.secondary{background:#fff;color:var(--danger);border-color:#fda29b}.secondary:hover{background:#fef3f2}
.ghost{background:transparent;color:var(--muted);border-color:var(--line)}.ghost:hover{background:#fff;color:var(--ink)}
button:focus-visible,.button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}
.decline-help{margin:.25rem 0 0;color:var(--muted);font-size:.8125rem;text-align:center}
footer{grid-column:1/-1;color:var(--muted);font-size:.8125rem;border-top:1px solid var(--line);padding-top:1.25rem;
display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;justify-content:space-between}
footer code{overflow-wrap:anywhere;word-break:break-all}
.lock{display:inline-flex;align-items:center;gap:.375rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`;

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase());
  return (letters.slice(0, 2).join('') || '$').slice(0, 2);
}

const LOCK_ICON =
  '<svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/></svg>';

function summary(view: CheckoutPageView): string {
  const money = (minor: number) => escapeHtml(formatMoney(minor, view.currency));
  const items = view.lineItems
    .map(
      (item) => `<li class="item">
  <span class="item-name">${escapeHtml(item.name)}</span>
  <span class="item-amount">${money(item.amountTotal)}</span>
  ${item.description ? `<span class="item-desc">${escapeHtml(item.description)}</span>` : ''}
  <span class="item-qty">Qty ${item.quantity}</span>
</li>`,
    )
    .join('\n');
  return `<section aria-labelledby="order-heading">
  <div class="merchant"><span class="mark" aria-hidden="true">${escapeHtml(initials(view.merchantName))}</span>${escapeHtml(view.merchantName)}</div>
  <p class="eyebrow" id="order-heading">Pay ${escapeHtml(view.merchantName)}</p>
  <h1>${money(view.amountTotal)}</h1>
  <ul class="items" aria-label="Order summary">${items}</ul>
  <dl class="totals">
    <div><dt>Subtotal</dt><dd>${money(view.amountTotal)}</dd></div>
    <div class="due"><dt>${view.state === 'complete' ? 'Total paid' : 'Total due'}</dt><dd>${money(view.amountTotal)}</dd></div>
  </dl>
</section>`;
}

function openPanel(view: CheckoutPageView): string {
  const total = escapeHtml(formatMoney(view.amountTotal, view.currency));
  return `<section class="panel" aria-labelledby="pay-heading">
  <h2 id="pay-heading">Pay with card</h2>
  ${view.declined ? '<div class="alert alert-error" role="alert"><strong>Your card was declined.</strong> This was a simulated decline: nothing was charged. Try again, or cancel.</div>' : ''}
  <div class="field"><span class="label" id="email-label">Email</span>
    <div class="value" aria-labelledby="email-label">${view.customerEmail ? escapeHtml(view.customerEmail) : '<span class="meta">Not provided</span>'}</div></div>
  <div class="field"><span class="label" id="card-label">Card information</span>
    <div class="value card" aria-labelledby="card-label">
      <div class="card-row"><span class="digits">4242 4242 4242 4242</span><span class="brand" aria-label="Visa">VISA</span></div>
      <div class="card-split"><span><span class="sr-only">Expiry </span>12 / 34</span><span>CVC 123</span></div>
    </div>
    <p class="hint">Stripe's test card. Nothing is charged on this page.</p></div>
  <div class="actions">
    <form method="post" action="${escapeHtml(view.actions.pay)}">${promotionField(view)}<button type="submit" class="primary">${LOCK_ICON}Pay ${total}</button></form>
    <form method="post" action="${escapeHtml(view.actions.decline)}"><button type="submit" class="secondary" aria-describedby="decline-help">Decline payment</button>
      <p class="decline-help" id="decline-help">Simulates a declined card: this page says so and nothing is charged; try again or cancel.</p></form>
    <form method="post" action="${escapeHtml(view.actions.cancel)}"><button type="submit" class="ghost">Cancel and return to ${escapeHtml(view.merchantName)}</button></form>
  </div>
</section>`;
}

/** The optional promotion code field of the Pay form (Checkout's "Add promotion code"). */
function promotionField(view: CheckoutPageView): string {
  const promo = view.promotionCodes;
  if (!promo?.allowed) return '';
  const error = promo.error
    ? `<div class="alert alert-error" role="alert" id="promo-error">${escapeHtml(promo.error)}</div>`
    : '';
  return `<div class="field">${error}<label class="label" for="promotion-code">Promotion code (optional)</label>
    <input id="promotion-code" name="promotion_code" autocomplete="off" class="value"${promo.error ? ' aria-describedby="promo-error"' : ''}>
    <p class="hint">Test codes: ${promo.examples.map(escapeHtml).join(', ')}.</p></div>`;
}

function closedPanel(view: CheckoutPageView): string {
  const paid = view.state === 'complete';
  const link = view.returnUrl
    ? `<div class="actions"><a class="button primary" href="${escapeHtml(view.returnUrl)}">Return to ${escapeHtml(view.merchantName)}</a></div>`
    : '';
  return `<section class="panel" aria-labelledby="pay-heading">
  <h2 id="pay-heading">${paid ? 'Payment complete' : 'This checkout has expired'}</h2>
  <div class="alert ${paid ? 'alert-ok' : 'alert-error'}" role="status">${
    paid
      ? 'This checkout session has already been paid. Nothing more to do here.'
      : 'This checkout session expired before it was paid. Start a new purchase from the site.'
  }</div>
  ${link}
</section>`;
}

/** The hosted checkout page for one session: the open form, or the paid / expired notice. */
export function renderCheckoutPage(view: CheckoutPageView): string {
  const expires = new Date(view.expiresAt * 1000).toISOString().replace('T', ' ').slice(0, 16);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Local test checkout · ${escapeHtml(view.merchantName)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="test-banner" role="note"><span class="pill">Test mode</span><span><strong>Local test checkout</strong> — no real payment is taken. This page stands in for Stripe Checkout because <code>STRIPE_SECRET_KEY</code> is not set.</span></div>
<main class="layout">
${summary(view)}
${view.state === 'open' ? openPanel(view) : closedPanel(view)}
<footer><span class="lock">${LOCK_ICON}Local Checkout provider · API ${escapeHtml(view.apiVersion)}</span>
<span>Session <code>${escapeHtml(view.sessionId)}</code> · expires ${escapeHtml(expires)} UTC</span></footer>
</main>
</body>
</html>`;
}

/** A small stand-alone page for an unknown session id. */
export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout not found · Local test checkout</title><style>${STYLE}</style></head>
<body><div class="test-banner" role="note"><span class="pill">Test mode</span><span><strong>Local test checkout</strong></span></div>
<main class="layout"><section class="panel"><h1>Checkout not found</h1>
<p class="meta">No checkout session has this id on the local provider. Start a new purchase from the site.</p></section></main>
</body></html>`;
}
