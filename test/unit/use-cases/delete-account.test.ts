import { describe, expect, it } from 'vitest';
import { StripeNotConfiguredError } from '../../../functions/adapters/stripe/client';
import { GenerationInProgressError } from '../../../functions/domain/errors';
import { findPack } from '../../../functions/domain/packs';
import { buyCreditPack } from '../../../functions/use-cases/buy-credit-pack';
import { deleteAccount, type DeleteAccountPorts } from '../../../functions/use-cases/delete-account';
import { FakeAccounts } from './fakes/account';
import { failing } from './fakes/failures';
import { paymentsWorld } from './fakes/payments';
import { FakeUserData } from './fakes/user-data';
import { deleteUserDataPorts } from './fakes/user-data-ports';
import { memberRecord, teamStore } from '../../helpers/team-store';
import { openLook } from '../../../functions/domain/team-look';
import { TeamOwnerCannotDeleteAccountError } from '../../../functions/domain/team-departures';

const sub = 'user-1';
const account = { sub, username: sub };
const NOW = new Date('2026-01-01T12:00:00.000Z');

/** A user with 9 credits, 4 headshots and 10 objects, a Cognito user, and one open Checkout Session. */
async function setup(overrides: Partial<DeleteAccountPorts> = {}) {
  const world = paymentsWorld();
  const data = new FakeUserData();
  const accounts = new FakeAccounts(world.ledger, world.purchases);
  world.ledger.seedUser(sub, 9);
  data.seed(sub, { headshots: 4, objects: 10, generations: [{ id: 'g1' }] });
  accounts.poolUsers.add(sub);
  const { id: openSession } = await buyCreditPack(
    { sub, email: undefined },
    findPack('starter')!,
    'click-0001',
    world.ports,
  );
  const teams = teamStore();
  const ports: DeleteAccountPorts = {
    ...deleteUserDataPorts(data),
    listMyTeams: teams.listMyTeams,
    listMembers: teams.listMembers,
    endMembership: teams.endMembership,
    listInviteLinks: teams.listInviteLinks,
    revokeInviteLink: teams.revokeInviteLink,
    closeOwnTeam: teams.closeOwnTeam,
    beginAccountDeletion: accounts.beginAccountDeletion,
    cancelAccountDeletion: accounts.cancelAccountDeletion,
    recentCheckoutSessionIds: accounts.recentCheckoutSessionIds,
    expireCheckoutSession: world.stripe.expireCheckoutSession,
    moveAccountingToPseudonym: accounts.moveAccountingToPseudonym,
    deleteUserPoolUser: accounts.deleteUserPoolUser,
    finishAccountDeletion: accounts.finishAccountDeletion,
    ...overrides,
  };
  return { ...world, data, accounts, teams, openSession, ports };
}

describe('deleteAccount: the account goes, the accounting stays under a pseudonym', () => {
  it('deletes the data, expires open sessions, keeps the balance under a pseudonym, and deletes the Cognito user', async () => {
    const { ports, ledger, data, accounts, stripe, openSession } = await setup();
    const started = await ports.beginAccountDeletion(sub, NOW); // the same deletion resumes below
    expect(await deleteAccount(account, NOW, ports)).toEqual({
      deleted: { headshots: 4, generations: 1, objects: 10 },
      creditsKept: 9,
    });
    expect(data.headshots.get(sub)).toBe(0);
    expect(data.wizardDrafts.has(sub)).toBe(false);
    expect(stripe.expired).toEqual([openSession]);
    expect(ledger.users.get(sub)).toMatchObject({ credits: 0, email: '', deletedAt: NOW.toISOString() });
    expect(ledger.balance(started!.pseudonymId)).toBe(9);
    expect(ledger.ledgerSum(started!.pseudonymId)).toBe(9);
    expect(accounts.poolUsers.has(sub)).toBe(false);
    expect(accounts.pseudonymOf(sub)).toBeUndefined();
    expect(accounts.forgotten.has(started!.pseudonymId)).toBe(true);
  });

  it('refuses the owner of a team others are in, deleting nothing; alone in it, the team is closed (issue 37)', async () => {
    const { ports, teams, data, accounts } = await setup();
    const team = {
      teamId: 'T1',
      name: 'Acme',
      ownerSub: sub,
      allowedDomains: [],
      look: openLook(),
      balance: 16,
      creditsOwed: 0,
      createdAt: NOW.toISOString(),
    };
    await teams.storeTeam(team, memberRecord('T1', sub, 'owner'));
    teams.members.set('T1/ana', memberRecord('T1', 'ana', 'member'));
    await expect(deleteAccount(account, NOW, ports)).rejects.toBeInstanceOf(
      TeamOwnerCannotDeleteAccountError,
    );
    expect(data.headshots.get(sub)).toBe(4);
    expect(accounts.pseudonymOf(sub)).toBeUndefined();
    expect(accounts.poolUsers.has(sub)).toBe(true);

    teams.members.get('T1/ana')!.membership = 'removed';
    await deleteAccount(account, NOW, ports);
    expect(teams.members.get(`T1/${sub}`)).toMatchObject({ membership: 'left', email: '' });
    expect(await teams.listMyTeams(sub)).toEqual([]);
    expect(accounts.poolUsers.has(sub)).toBe(false);
  });

  it('is harmless to call again once the account is gone', async () => {
    const { ports, stripe } = await setup();
    await deleteAccount(account, NOW, ports);
    expect(await deleteAccount(account, NOW, ports)).toEqual({
      deleted: { headshots: 0, generations: 0, objects: 0 },
      creditsKept: 0,
    });
    expect(stripe.expired).toHaveLength(1);
  });

  it('refuses while a generation may still run, giving the account back untouched', async () => {
    const { ports, ledger, data, accounts } = await setup();
    data.seed(sub, {
      headshots: 4,
      objects: 10,
      generations: [{ id: 'g2', status: 'running', createdAt: NOW.toISOString() }],
    });
    const refused = await deleteAccount(account, NOW, ports).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GenerationInProgressError);
    expect((refused as Error).message).toMatch(/delete your account/);
    expect(ledger.users.get(sub)?.deletingAt).toBeUndefined();
    expect(ledger.balance(sub)).toBe(9);
    expect(data.headshots.get(sub)).toBe(4);
    expect(accounts.poolUsers.has(sub)).toBe(true);
  });

  it('finishes the deletion when Stripe refuses to expire a session, or is not configured', async () => {
    const refused = await setup({ expireCheckoutSession: failing(new Error('session is complete')) });
    expect((await deleteAccount(account, NOW, refused.ports)).creditsKept).toBe(9);
    const unconfigured = await setup({ expireCheckoutSession: failing(new StripeNotConfiguredError()) });
    expect((await deleteAccount(account, NOW, unconfigured.ports)).creditsKept).toBe(9);
    expect(unconfigured.accounts.poolUsers.has(sub)).toBe(false);
  });

  it('resumes where a failed run stopped: the Cognito user is deleted on the retry, the balance moved once', async () => {
    const down = new Error('Cognito down');
    const world = await setup({ deleteUserPoolUser: failing(down) });
    await expect(deleteAccount(account, NOW, world.ports)).rejects.toBe(down);
    expect(world.accounts.poolUsers.has(sub)).toBe(true);
    const pseudonym = world.accounts.pseudonymOf(sub)!;
    const retry = { ...world.ports, deleteUserPoolUser: world.accounts.deleteUserPoolUser };
    expect(await deleteAccount(account, NOW, retry)).toMatchObject({ creditsKept: 0 });
    expect(world.accounts.poolUsers.has(sub)).toBe(false);
    expect(world.ledger.balance(pseudonym)).toBe(9);
  });
});
