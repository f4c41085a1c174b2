import type { InvitationsSent } from '../../../../../functions/contracts/teams';
import { INVITE_TEXT } from './text';

/**
 * The one line after 'Send invitations' (docs/product-spec.md §2 "Teams"): 'Invited {n}.' then, only when they
 * apply, the addresses already in the team, already invited, outside the domains, not addresses, not sent.
 */
export function invitationSummary(result: InvitationsSent): string {
  const parts = [INVITE_TEXT.invited(result.sent.length)];
  const rest: [number, (n: number) => string][] = [
    [result.alreadyMembers.length, INVITE_TEXT.alreadyMembers],
    [result.alreadyInvited.length, INVITE_TEXT.alreadyInvited],
    [result.wrongDomain.length, INVITE_TEXT.wrongDomain],
    [result.invalid.length, INVITE_TEXT.invalid],
    [result.failed.length, INVITE_TEXT.failed],
  ];
  for (const [n, sentence] of rest) if (n > 0) parts.push(sentence(n));
  return parts.join(' ');
}
