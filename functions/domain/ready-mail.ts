import { mailMessage, plural, type MailContent } from './mail-layout';

export type { MailContent } from './mail-layout';

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
  return mailMessage({
    subject,
    displayName: input.displayName,
    lines,
    action: {
      label: input.status === 'failed' ? 'Open your dashboard' : 'See your headshots',
      url: input.dashboardUrl,
    },
    footer: 'You get this e-mail because "E-mail me when my headshots are ready" is on in your dashboard.',
  });
}
