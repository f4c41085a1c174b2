import { useQuery } from '@tanstack/react-query';
import {
  createdInviteLinkSchema,
  inviteAcceptedSchema,
  inviteLinksSchema,
  invitePreviewSchema,
  invitationSchema,
  invitationsSentSchema,
  type CreateInviteLinkBody,
  type CreatedInviteLink,
  type InviteAccepted,
  type InvitePreview,
  type Invitation,
  type InvitationsSent,
  type SendInvitationsBody,
} from '../../../../../functions/contracts/teams';
import { apiCall, apiFetch, type ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import { teamPath } from './team-writes';

/** `POST /api/teams/{teamId}/invite-links`: a new link; its URL is answered this once. */
export function createInviteLink(teamId: string, body: CreateInviteLinkBody): Promise<CreatedInviteLink> {
  return apiCall(`${teamPath(teamId)}/invite-links`, createdInviteLinkSchema, { method: 'POST', body });
}

/** `DELETE /api/teams/{teamId}/invite-links/{linkId}` (204): turns a link off. */
export async function revokeInviteLink(teamId: string, linkId: string): Promise<void> {
  await apiFetch<unknown>(`${teamPath(teamId)}/invite-links/${encodeURIComponent(linkId)}`, {
    method: 'DELETE',
  });
}

/** The team's links, newest first (`GET /api/teams/{teamId}/invite-links`, owner/admin). */
export function useInviteLinks(teamId: string, enabled: boolean) {
  const { status, user } = useAuth();
  return useQuery({
    queryKey: queryKeys.teams.part(user?.sub ?? null, teamId, 'links'),
    queryFn: ({ signal }) => apiCall(`${teamPath(teamId)}/invite-links`, inviteLinksSchema, { signal }),
    enabled: enabled && status === 'signedIn',
    staleTime: 15_000,
  });
}

/** `POST /api/teams/{teamId}/invitations`: e-mails invitations to a list or a pasted CSV; what happened to each. */
export function sendInvitations(teamId: string, body: SendInvitationsBody): Promise<InvitationsSent> {
  return apiCall(`${teamPath(teamId)}/invitations`, invitationsSentSchema, { method: 'POST', body });
}

/** `POST /api/teams/{teamId}/invitations/{email}/resend`: a new personal link, the old one turned off. */
export function resendInvitation(teamId: string, email: string): Promise<Invitation> {
  return apiCall(`${teamPath(teamId)}/invitations/${encodeURIComponent(email)}/resend`, invitationSchema, {
    method: 'POST',
  });
}

/**
 * The public preview of an invitation link (`GET /api/invites/{token}`): the team's name and the link's status,
 * signed in or not. Not retried: a 404 is the answer for an unknown link.
 */
export function useInvitePreview(token: string) {
  return useQuery<InvitePreview, ApiError>({
    queryKey: queryKeys.invite(token),
    queryFn: ({ signal }) =>
      apiCall(`/invites/${encodeURIComponent(token)}`, invitePreviewSchema, { signal }),
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * `POST /api/invites/{token}/accept`: joins the team (or answers `alreadyMember`).
 * @throws {ApiError} 410 `INVITE_EXPIRED`/`INVITE_USED_UP`/`INVITE_REVOKED`, 404 `INVITE_NOT_FOUND`, 403
 *   `EMAIL_NOT_VERIFIED`/`INVITE_WRONG_DOMAIN`/`INVITE_WRONG_ADDRESS`, each with its sentence
 */
export function acceptInvite(token: string): Promise<InviteAccepted> {
  return apiCall(`/invites/${encodeURIComponent(token)}/accept`, inviteAcceptedSchema, { method: 'POST' });
}
