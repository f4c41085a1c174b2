import { displayNameFromEmail } from './credits';
import { mailMessage, type MailContent } from './mail-layout';

/**
 * The team invitation e-mail (docs/product-spec.md §2 "Teams", issue 37 §4): transactional, one per invitation sent
 * or resent, with the invitation's personal link. Pure: use-cases/send-invitations.ts sends what this returns.
 */

/** What the invitation says. */
export interface InvitationMailInput {
  teamName: string;
  /** Who invited (their address, as the team's dashboard shows them). */
  inviterEmail: string;
  /** The invited address. */
  email: string;
  /** `<site>/join/<token>`: the personal link. */
  url: string;
  /** When the link stops working, ISO 8601 UTC. */
  expiresAt: string;
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** The invitation e-mail of `input`. */
export function invitationMail(input: InvitationMailInput): MailContent {
  const team = input.teamName;
  return mailMessage({
    subject: `You're invited to ${team} on Headshot Studio`,
    displayName: displayNameFromEmail(input.email),
    lines: [
      `${input.inviterEmail} invited you to make professional headshots with ${team}. Your team pays for them.`,
      `This invitation expires on ${DATE.format(new Date(input.expiresAt))}. If you don't know ${team}, ignore this e-mail.`,
    ],
    action: { label: `Join ${team}`, url: input.url },
    footer: `You received this e-mail because someone at ${team} invited ${input.email}.`,
  });
}
