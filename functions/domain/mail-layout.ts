/**
 * The shape every e-mail of the product shares (docs/product-spec.md "E-mails"): a subject, a plain-text body and an
 * HTML body built from the same lines, so the two never say different things. Pure: the use cases send what the
 * templates return through adapters/mailer.ts.
 */

/** An e-mail: subject, plain text and HTML bodies. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** `text` with `&`, `<`, `>`, `"` and `'` written as HTML entities, safe inside an element or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** `1 credit`, `6 credits`: a count with the word that agrees with it. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A message laid out by {@link mailMessage}. */
export interface MailMessage {
  subject: string;
  /** The customer's name as the app shows it (the greeting's). */
  displayName: string;
  /** The paragraphs, in order. */
  lines: readonly string[];
  /** Facts shown as a two-column list under the paragraphs (label, value), e.g. a receipt's amount. */
  facts?: readonly (readonly [string, string])[];
  /** The button: its label and the absolute URL it opens (in the text body, `label: url`). */
  action: { label: string; url: string };
  /** Further links under the button, each `label: url` (a receipt's card receipt). */
  links?: readonly { label: string; url: string }[];
  /** The small print: why the customer gets this e-mail. */
  footer: string;
}

const BUTTON =
  'display:inline-block;padding:10px 18px;border-radius:10px;background:#4f46e5;color:#fff;text-decoration:none;font-weight:600';

/** The subject, text and HTML of `message`, in the product's e-mail layout. */
export function mailMessage(message: MailMessage): MailContent {
  const facts = message.facts ?? [];
  const links = message.links ?? [];
  const text = [
    `Hi ${message.displayName},`,
    '',
    ...message.lines,
    ...(facts.length > 0 ? ['', ...facts.map(([label, value]) => `${label}: ${value}`)] : []),
    '',
    `${message.action.label}: ${message.action.url}`,
    ...links.map((link) => `${link.label}: ${link.url}`),
    '',
    'Headshot Studio',
    message.footer,
  ].join('\n');
  // A value without spaces (a Checkout Session id is 66 characters) breaks anywhere rather than widen a phone's page.
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><td style="padding:2px 16px 2px 0;color:#64748b;white-space:nowrap;vertical-align:top">${escapeHtml(label)}</td><td style="word-break:break-all">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">',
    `<p>Hi ${escapeHtml(message.displayName)},</p>`,
    ...message.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...(rows ? [`<table style="border-collapse:collapse;margin:8px 0 16px">${rows}</table>`] : []),
    `<p><a href="${escapeHtml(message.action.url)}" style="${BUTTON}">${escapeHtml(message.action.label)}</a></p>`,
    ...links.map((link) => `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`),
    `<p style="color:#64748b;font-size:13px">Headshot Studio · ${escapeHtml(message.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: message.subject, text, html };
}
