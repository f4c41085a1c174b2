import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { getGeneration } from '../../functions/adapters/generations';
import { grantCredits, listLedger, readAccountBalance } from '../../functions/adapters/ledger';
import { documentClient } from '../../functions/adapters/support/aws';
import { generationSk, userPk } from '../../functions/adapters/support/keys';
import { getMember } from '../../functions/adapters/teams/records';
import { storageSettings } from '../../functions/config/storage';
import { teamAccount } from '../../functions/domain/ledger-account';
import { TeamAllowanceUsedError } from '../../functions/domain/team-errors';
import { compensateGeneration } from '../../functions/use-cases/compensate-generation';
import {
  startGeneration,
  startGenerationAdapters,
  type GenerationRequest,
  type StartGenerationPorts,
} from '../../functions/use-cases/start-generation';
import type { TestUser } from '../helpers/cognito';
import { signedUpUser } from '../helpers/gallery';
import { api } from '../helpers/generation';
import { expectLedgerBalanced, expectTeamLedgerBalanced } from '../helpers/ledger';

/*
 * A team generation's money on the shared stack's DynamoDB Local (docs/teams.md "Money"): the route's refusals
 * (LOOK_LOCKED, TEAM_NOT_FOUND) through the gateway, then the spend and its refund with the real adapters — the team's
 * balance, the member's counter, the user item's guard and the generation item in one transaction, refused by the
 * table when the allowance is used, and a refund of a generation that delivered nothing back to the team with the
 * member's generation given back. No workflow runs: the execution's start is the one port replaced.
 */

const { gatewayUrl } = inject('localStack');

async function call(user: TestUser, method: string, path: string, body?: unknown) {
  const res = await api(gatewayUrl, user.idToken, method, path, body);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

/** A team (its look locked to professional / office / suit and tie) with `member` joined and 24 credits. */
async function teamWithMember() {
  const [owner, member, stranger] = await Promise.all([signedUpUser(), signedUpUser(), signedUpUser()]);
  const teamId = String((await call(owner, 'POST', '/api/teams', { name: 'Acme' })).body.teamId);
  const look = {
    styles: ['professional'],
    backgrounds: [{ type: 'preset', background: 'office' }],
    outfits: ['suit-and-tie'],
  };
  expect((await call(owner, 'PATCH', `/api/teams/${teamId}`, { look })).status).toBe(200);
  const link = await call(owner, 'POST', `/api/teams/${teamId}/invite-links`, {});
  const token = String(link.body.url).split('/join/')[1]!;
  expect((await call(member, 'POST', `/api/invites/${token}/accept`)).status).toBe(200);
  await grantCredits({ account: teamAccount(teamId), amount: 24, ref: `cs_test_seed_${teamId}` });
  return { owner, member, stranger, teamId };
}

/** The real adapters, the workflow's start excepted (it would run a whole generation). */
const ports: StartGenerationPorts = {
  ...startGenerationAdapters,
  startGenerationExecution: async ({ generationId }) =>
    `arn:aws:states:us-east-1:000000000000:execution:generation:${generationId}`,
  setExecutionArn: async () => undefined,
};

const balance = async (teamId: string) => (await readAccountBalance(teamAccount(teamId)))?.balance;
const counter = async (teamId: string, sub: string) => (await getMember(teamId, sub))?.generationsUsed;

async function markSucceeded(sub: string, id: string) {
  await documentClient().send(
    new UpdateCommand({
      TableName: storageSettings().TABLE_NAME,
      Key: { PK: userPk(sub), SK: generationSk(id) },
      UpdateExpression: 'SET #status = :done',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'succeeded' },
    }),
  );
}

describe('a team generation on DynamoDB Local', () => {
  it(
    'is refused outside the look or the team before anything is read or spent',
    { timeout: 60_000 },
    async () => {
      const { member, stranger, teamId } = await teamWithMember();
      const body = (user: TestUser, fields: Record<string, unknown>) => ({
        style: 'professional',
        background: 'office',
        outfit: 'suit-and-tie',
        referenceKeys: [`uploads/${user.sub}/01KDWYDY00BBBBBBBBBBBBBBBB/0`],
        teamId,
        ...fields,
      });
      const outside = await call(member, 'POST', '/api/generations', body(member, { style: 'creative' }));
      expect([outside.status, (outside.body.error as { code: string }).code]).toEqual([400, 'LOOK_LOCKED']);
      const notMine = await call(stranger, 'POST', '/api/generations', body(stranger, {}));
      expect([notMine.status, (notMine.body.error as { code: string }).code]).toEqual([
        404,
        'TEAM_NOT_FOUND',
      ]);
      const colourAlone = await call(member, 'POST', '/api/generations', {
        ...body(member, { background: 'studio', backgroundColour: '#1f6feb' }),
        teamId: undefined,
      });
      expect(colourAlone.status).toBe(400);
      expect(await balance(teamId)).toBe(24);
    },
  );

  it(
    'spends the team’s credits and the member’s generation together; the table refuses a second; a refund gives both back',
    { timeout: 60_000 },
    async () => {
      const { member, teamId } = await teamWithMember();
      const starter = { sub: member.sub, email: undefined };
      const request: GenerationRequest = {
        style: 'professional',
        background: 'office',
        outfit: 'suit-and-tie',
        referenceKeys: [`uploads/${member.sub}/01KDWYDY00BBBBBBBBBBBBBBBB/0`],
        referenceSetHash: 'a'.repeat(64),
        payer: { team: teamId },
      };

      const first = await startGeneration(starter, request, ports);
      expect(first).toMatchObject({ creditsReserved: 6, credits: 6 });
      expect(await balance(teamId)).toBe(18);
      expect(await counter(teamId, member.sub)).toBe(1);
      expect(await getGeneration(member.sub, first.id)).toMatchObject({ payer: { team: teamId } });

      // Nothing delivered (a timed-out execution, the sweeper): every credit back to the team, the generation too.
      await compensateGeneration(member.sub, first.id, { code: 'TIMED_OUT', message: 'Timed out' });
      await compensateGeneration(member.sub, first.id, { code: 'TIMED_OUT', message: 'Timed out' });
      expect(await balance(teamId)).toBe(24);
      expect(await counter(teamId, member.sub)).toBe(0);
      expect((await listLedger(teamAccount(teamId))).filter((e) => e.reason === 'refund')).toHaveLength(6);

      const second = await startGeneration(starter, request, ports);
      await markSucceeded(member.sub, second.id);
      // Past the use case's own check (which would answer first): the spend's condition on the member item refuses.
      await expect(startGeneration(starter, request, ports)).rejects.toBeInstanceOf(TeamAllowanceUsedError);
      expect(await balance(teamId)).toBe(18);
      expect(await counter(teamId, member.sub)).toBe(1);
      // The member's own credits never moved.
      expect((await call(member, 'GET', '/api/me')).body.credits).toBe(6);
      await expectLedgerBalanced(member.sub);
      await expectTeamLedgerBalanced(teamId);
    },
  );
});
