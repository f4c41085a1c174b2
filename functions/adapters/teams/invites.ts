import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InviteLink } from '../../domain/team-invites';
import { ItemNotFoundError } from '../../domain/errors';
import { documentClient } from '../support/aws';
import {
  INVITATION_PREFIX,
  INVITE_LINK_PREFIX,
  INVITE_TOKEN_SK,
  TEAM_SK,
  invitationSk,
  inviteLinkSk,
  inviteTokenPk,
  teamMemberSk,
  teamPk,
} from '../support/keys';
import { queryAll } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { memberItem, userTeamItem } from './changes';
import { table, type MemberRecord } from './records';

/**
 * Invitation links, e-mail invitations and joining (docs/teams.md "Invitations"). A token is never stored: the link
 * keeps its SHA-256 (`tokenHash`) and the lookup item `INVITE#<hash>` finds the link by it.
 */

/** An e-mail invitation (`TEAM#<teamId>` / `INVITATION#<email>`). */
export interface InvitationRecord {
  email: string;
  /** Its current personal link. */
  linkId: string;
  sentAt: string;
  sends: number;
  expiresAt: string;
  invitedBy: string;
  acceptedAt?: string;
}

/** Links (and lookups) outlive their expiry by 30 days, then TTL removes them. */
const TTL_AFTER_EXPIRY_SECONDS = 30 * 86_400;
const ttl = (expiresAt: string) => Math.floor(Date.parse(expiresAt) / 1000) + TTL_AFTER_EXPIRY_SECONDS;

function toLink(item: Record<string, unknown>): InviteLink {
  return {
    linkId: String(item.linkId),
    createdAt: String(item.createdAt),
    expiresAt: String(item.expiresAt),
    cap: Number(item.cap),
    uses: Number(item.uses ?? 0),
    domainsOnly: item.domainsOnly === true,
    ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
    ...(typeof item.email === 'string' ? { email: item.email } : {}),
  };
}

function toInvitation(item: Record<string, unknown>): InvitationRecord {
  return {
    email: String(item.email),
    linkId: String(item.linkId),
    sentAt: String(item.sentAt),
    sends: Number(item.sends ?? 1),
    expiresAt: String(item.expiresAt),
    invitedBy: String(item.invitedBy),
    ...(typeof item.acceptedAt === 'string' ? { acceptedAt: item.acceptedAt } : {}),
  };
}

/** The two puts of a new link: the link (with its token's hash) and the token's lookup. */
function linkPuts(teamId: string, link: InviteLink, tokenHash: string, createdBy: string) {
  return [
    {
      Put: {
        TableName: table(),
        Item: {
          PK: teamPk(teamId),
          SK: inviteLinkSk(link.linkId),
          type: 'team-invite-link',
          ...link,
          tokenHash,
          createdBy,
          expiresAtEpoch: ttl(link.expiresAt),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: table(),
        Item: {
          PK: inviteTokenPk(tokenHash),
          SK: INVITE_TOKEN_SK,
          type: 'team-invite-token',
          teamId,
          linkId: link.linkId,
          expiresAtEpoch: ttl(link.expiresAt),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}

/** Stores a new link and its token's lookup. */
export async function putInviteLink(
  teamId: string,
  link: InviteLink,
  tokenHash: string,
  createdBy: string,
): Promise<void> {
  await transactWrite(linkPuts(teamId, link, tokenHash, createdBy));
}

/** Every link of the team (personal ones included), oldest first. */
export async function listInviteLinks(teamId: string): Promise<InviteLink[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': teamPk(teamId), ':prefix': INVITE_LINK_PREFIX },
  });
  return items.map(toLink);
}

/**
 * Turns a link off (`revokedAt`, kept if already set).
 *
 * @throws {ItemNotFoundError} when the team has no such link
 */
export async function revokeInviteLink(teamId: string, linkId: string, now: string): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: teamPk(teamId), SK: inviteLinkSk(linkId) },
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') {
      throw new ItemNotFoundError('This invitation link was not found.');
    }
    throw error;
  }
}

/** The link a token's hash names, with its team's id; `undefined` for an unknown token or a link gone. */
export async function findInvite(
  tokenHash: string,
): Promise<{ teamId: string; link: InviteLink } | undefined> {
  const { Item: lookup } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: { PK: inviteTokenPk(tokenHash), SK: INVITE_TOKEN_SK } }),
  );
  if (!lookup) return undefined;
  const teamId = String(lookup.teamId);
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: teamPk(teamId), SK: inviteLinkSk(String(lookup.linkId)) },
      ConsistentRead: true,
    }),
  );
  return Item ? { teamId, link: toLink(Item) } : undefined;
}

/** Why a join transaction was refused: the link's conditions, or the person is a member already. */
export type JoinRefusal = 'link' | 'already-member' | 'team-gone';

/** Thrown by {@link joinTeam} when a condition of its transaction failed. */
export class JoinRefusedError extends Error {
  override readonly name = 'JoinRefusedError';
  constructor(readonly refusal: JoinRefusal) {
    super(`Join refused: ${refusal}`);
  }
}

/**
 * Joins `member` to the team through `link`, in one transaction: the link's `uses + 1` while it is usable at `now`,
 * the member item (new, or a gone member's restored with their counters), "my teams", and for a personal link its
 * invitation's `acceptedAt`.
 *
 * @param previous the person's member item when they were in the team before (its counters are kept)
 * @throws {JoinRefusedError} `link` (revoked, expired or used up meanwhile), `already-member`, `team-gone`
 */
export async function joinTeam(
  link: InviteLink,
  member: MemberRecord,
  previous: MemberRecord | undefined,
  now: string,
): Promise<void> {
  const { teamId } = member;
  const memberWrite = previous
    ? {
        Update: {
          TableName: table(),
          Key: { PK: teamPk(teamId), SK: teamMemberSk(member.sub) },
          UpdateExpression:
            'SET membership = :joined, #role = :role, email = :email, joinedAt = :now REMOVE leftAt',
          ConditionExpression: 'membership <> :joined',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: {
            ':joined': 'joined',
            ':role': member.role,
            ':email': member.email,
            ':now': now,
          },
        },
      }
    : {
        Put: {
          TableName: table(),
          Item: memberItem(member),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      };
  const items = [
    {
      Update: {
        TableName: table(),
        Key: { PK: teamPk(teamId), SK: inviteLinkSk(link.linkId) },
        UpdateExpression: 'ADD uses :one',
        ConditionExpression:
          'attribute_not_exists(revokedAt) AND expiresAt > :now AND (attribute_not_exists(uses) OR uses < cap)',
        ExpressionAttributeValues: { ':one': 1, ':now': now },
      },
    },
    memberWrite,
    {
      ConditionCheck: {
        TableName: table(),
        Key: { PK: teamPk(teamId), SK: TEAM_SK },
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
    { Put: { TableName: table(), Item: userTeamItem(member.sub, teamId, now) } },
    ...(link.email === undefined
      ? []
      : [
          {
            Update: {
              TableName: table(),
              Key: { PK: teamPk(teamId), SK: invitationSk(link.email) },
              UpdateExpression: 'SET acceptedAt = :now',
              ExpressionAttributeValues: { ':now': now },
            },
          },
        ]),
  ];
  try {
    await transactWrite(items);
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    if (codes[0] === 'ConditionalCheckFailed') throw new JoinRefusedError('link');
    if (codes[1] === 'ConditionalCheckFailed') throw new JoinRefusedError('already-member');
    if (codes[2] === 'ConditionalCheckFailed') throw new JoinRefusedError('team-gone');
    throw error;
  }
}

/** The team's e-mail invitations (accepted ones included). */
export async function listInvitations(teamId: string): Promise<InvitationRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': teamPk(teamId), ':prefix': INVITATION_PREFIX },
  });
  return items.map(toInvitation);
}

/** One e-mail invitation, or `undefined`. */
export async function getInvitation(teamId: string, email: string): Promise<InvitationRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: teamPk(teamId), SK: invitationSk(email) },
      ConsistentRead: true,
    }),
  );
  return Item ? toInvitation(Item) : undefined;
}

/**
 * Stores an e-mail invitation with its new personal link, or renews one (a resend: the invitation's link replaced,
 * the old one revoked, `sends + 1`), in one transaction. A new invitation is refused over one still open.
 *
 * @param replaces for a resend, the invitation as read (its `linkId` and `sends` are the transaction's conditions)
 * @returns false when a condition failed (invited meanwhile, accepted, or sent again by someone else)
 */
export async function putInvitation(
  teamId: string,
  invitation: InvitationRecord,
  link: InviteLink,
  tokenHash: string,
  replaces?: InvitationRecord,
): Promise<boolean> {
  const item = {
    PK: teamPk(teamId),
    SK: invitationSk(invitation.email),
    type: 'team-invitation',
    ...invitation,
  };
  const invitationWrite = replaces
    ? {
        Put: {
          TableName: table(),
          Item: item,
          ConditionExpression: 'linkId = :old AND sends = :sends AND attribute_not_exists(acceptedAt)',
          ExpressionAttributeValues: { ':old': replaces.linkId, ':sends': replaces.sends },
        },
      }
    : {
        Put: {
          TableName: table(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(PK) OR attribute_exists(acceptedAt) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': invitation.sentAt },
        },
      };
  const revokeOld = replaces
    ? [
        {
          Update: {
            TableName: table(),
            Key: { PK: teamPk(teamId), SK: inviteLinkSk(replaces.linkId) },
            UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
            ExpressionAttributeValues: { ':now': invitation.sentAt },
          },
        },
      ]
    : [];
  try {
    await transactWrite([
      invitationWrite,
      ...revokeOld,
      ...linkPuts(teamId, link, tokenHash, invitation.invitedBy),
    ]);
    return true;
  } catch (error) {
    if ((cancellationCodes(error) ?? []).includes('ConditionalCheckFailed')) return false;
    throw error;
  }
}
