/**
 * The "headshots ready" e-mail (docs/product-spec.md §5: to, subject, html or text), sent when a generation ends —
 * also when it ends partial or failed, saying what was refunded. Pure: the notify task sends what this returns.
 */

/** What the message says about one finished generation. */
export interface ReadyMailInput {
  status: 'succeeded' | 'partial' | 'failed';
  /** Headshots delivered. */
  delivered: number;
  /** Credits given back. */
  refunded: number;
  /** The customer's name as the app shows it. */
  displayName: string;
  /** Absolute URL of the dashboard, e.g. `https://headshots.example.com/dashboard`. */
  dashboardUrl: string;
  /**
   * The likeness cap stopped it (docs/decisions/004-likeness-retry-cap.md): its headshots did not look like the
   * customer, so the message asks for other photos instead of inviting the same ones again.
   */
  likenessStopped?: boolean;
}

const OTHER_PHOTOS =
  "They didn't look enough like you, so we stopped instead of trying again with these photos: please upload 5-10 different photos (recent, well lit, just you, facing the camera).";

/** An e-mail: subject, plain text and HTML bodies. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The message for a finished generation. */
export function readyMail(input: ReadyMailInput): MailContent {
  const credits = plural(input.refunded, 'credit', 'credits');
  const headshots = plural(input.delivered, 'headshot', 'headshots');
  const subject =
    input.status === 'succeeded'
      ? 'Your headshots are ready!'
      : input.status === 'partial'
        ? `${headshots} ready, ${credits} refunded`
        : `We couldn't create your headshots — ${credits} refunded`;
  const lines =
    input.status === 'succeeded'
      ? [`Your ${headshots} ${input.delivered === 1 ? 'is' : 'are'} ready to view and download.`]
      : input.status === 'partial'
        ? [
            `${headshots} ${input.delivered === 1 ? 'is' : 'are'} ready to view and download.`,
            `The others could not be created, so ${credits} went back to your balance.`,
            ...(input.likenessStopped ? [OTHER_PHOTOS] : []),
          ]
        : input.likenessStopped
          ? [
              "We couldn't create your headshots this time.",
              OTHER_PHOTOS,
              `Your ${credits} went back to your balance.`,
            ]
          : [
              "We couldn't create your headshots this time.",
              `Your ${credits} went back to your balance, so you can try again at no cost.`,
            ];
  const action = input.status === 'failed' ? 'Open your dashboard' : 'See your headshots';
  const text = [
    `Hi ${input.displayName},`,
    '',
    ...lines,
    '',
    `${action}: ${input.dashboardUrl}`,
    '',
    'Headshot Studio',
    'You get this e-mail because "E-mail me when my headshots are ready" is on in your dashboard.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">
<p>Hi ${escapeHtml(input.displayName)},</p>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(input.dashboardUrl)}" style="display:inline-block;padding:10px 18px;border-radius:10px;background:#4f46e5;color:#fff;text-decoration:none;font-weight:600">${action}</a></p>
<p style="color:#64748b;font-size:13px">Headshot Studio · You get this e-mail because "E-mail me when my headshots are ready" is on in your dashboard.</p>
</body></html>`;
  return { subject, text, html };
}
