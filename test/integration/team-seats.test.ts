import { describe, expect, it } from 'vitest';
import { listLedger, readAccountBalance, spendCredits } from '../../functions/adapters/ledger';
import { findPaymentIntent, getPendingPurchase, getPurchase } from '../../functions/adapters/purchases';
import { teamPurchasesPageSchema } from '../../functions/contracts/teams';
import { teamAccount } from '../../functions/domain/ledger-account';
import type { TestUser } from '../helpers/cognito';
import { expectLedgerBalanced, expectTeamLedgerBalanced } from '../helpers/ledger';
import { usePaymentsStack } from '../helpers/payments-stack';

/*
 * A team's seats end to end (issue 37 §2 and its acceptance: "a replayed seat purchase webhook credits once; a refund
 * of the seat purchase takes back unused seats"): the real handlers behind this file's gateway, the real `stripe`
 * SDK, and the local Checkout provider, whose Pay, refund and dispute post signed events as Stripe does. Each test
 * decides when the provider's events are delivered and how often.
 */

const payments = usePaymentsStack({ deliverWebhooks: true });

async function json(user: TestUser, method: string, path: string, body?: unknown) {
  const res = await payments.api(path, user.idToken, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A new owner (6 credits of their own) and their team. */
async function ownerWithTeam() {
  const owner = await payments.buyer();
  const created = await json(owner, 'POST', '/api/teams', { name: 'Acme' });
  expect(created.status).toBe(200);
  return { owner, teamId: String(created.body.teamId) };
}

async function buySeats(owner: TestUser, teamId: string, seats: number) {
  const answer = await json(owner, 'POST', `/api/teams/${teamId}/checkout/sessions`, { seats });
  expect(answer.status).toBe(200);
  return String(answer.body.id);
}

const balanceOf = async (teamId: string) => (await readAccountBalance(teamAccount(teamId)))?.balance;

describe('a team’s seats through Stripe Checkout', () => {
  it('credits the team seats × 8 once, however often the webhook is delivered, and lists the receipt', async () => {
    const { owner, teamId } = await ownerWithTeam();
    const id = await buySeats(owner, teamId, 3);
    expect(payments.provider.getSession(id, { expandLineItems: true })).toMatchObject({
      amount_total: 2100,
      metadata: { team_id: teamId, seats: '3', pack_id: 'team-seats' },
      line_items: { data: [{ quantity: 3, price: { unit_amount: 700 } }] },
    });
    expect(await getPendingPurchase(teamAccount(teamId), id)).toMatchObject({
      quantity: 3,
      priceCents: 2100,
    });

    // Paid; the event held back and then delivered three times (Stripe retries and replays).
    const { event } = await payments.provider.pay(id, { deliver: false });
    for (let i = 0; i < 3; i++) expect(await payments.provider.deliver(event!)).toBe(200);
    expect(await balanceOf(teamId)).toBe(24);
    expect((await listLedger(teamAccount(teamId))).map((e) => [e.reason, e.delta, e.ref])).toEqual([
      ['purchase', 24, id],
    ]);
    // The success page's verification credits nothing more and reports the team's balance.
    expect(await (await payments.verify(owner, id)).json()).toEqual({
      status: 'paid',
      creditsAdded: 24,
      credits: 24,
    });
    // The buyer's own credits never moved.
    expect((await json(owner, 'GET', '/api/me')).body.credits).toBe(6);
    await expectLedgerBalanced(owner.sub);
    await expectTeamLedgerBalanced(teamId);

    const purchase = await getPurchase(teamAccount(teamId), id);
    expect(await findPaymentIntent(purchase!.paymentIntentId!)).toEqual({
      sub: owner.sub,
      checkoutSessionId: id,
      teamId,
    });
    const history = await json(owner, 'GET', `/api/teams/${teamId}/purchases`);
    expect(history.status).toBe(200);
    expect(teamPurchasesPageSchema.parse(history.body).items).toEqual([
      expect.objectContaining({
        id,
        packName: 'Seats',
        seats: 3,
        credits: 24,
        amountCents: 2100,
        buyerEmail: owner.email.toLowerCase(),
        status: 'completed',
      }),
    ]);
    expect(JSON.stringify(history.body)).toMatch(/"receiptUrl":"http/);
    // The personal history is the buyer's own: no seat purchase in it.
    expect((await json(owner, 'GET', '/api/purchases')).body.items).toEqual([]);
  });

  it('a refund of the seat purchase takes back the unused seats; what members spent is owed and settled next', async () => {
    const { owner, teamId } = await ownerWithTeam();
    const id = await buySeats(owner, teamId, 3);
    await payments.provider.pay(id);
    expect(await balanceOf(teamId)).toBe(24);
    // One member's generation spent a seat's 6 credits from the team's ledger.
    await spendCredits({ account: teamAccount(teamId), amount: 6, ref: '01JTEAMGENERATION000000000' });

    const { event, delivery } = await payments.provider.refund(id);
    expect(delivery).toBe(200);
    // Replayed: nothing more is taken, nothing more owed.
    expect(await payments.provider.deliver(event)).toBe(200);
    expect(await balanceOf(teamId)).toBe(0);
    expect(await getPurchase(teamAccount(teamId), id)).toMatchObject({
      status: 'refunded',
      creditsReversed: 24,
    });
    const team = await json(owner, 'GET', `/api/teams/${teamId}`);
    expect(team.body.admin).toMatchObject({ balance: 0, creditsOwed: 6 });
    expect((await json(owner, 'GET', '/api/me')).body.credits).toBe(6);

    // The next purchase pays the debt first: 1 seat (8 credits) leaves 2.
    const next = await buySeats(owner, teamId, 1);
    await payments.provider.pay(next);
    expect((await json(owner, 'GET', `/api/teams/${teamId}`)).body.admin).toMatchObject({
      balance: 2,
      creditsOwed: 0,
    });
    await expectTeamLedgerBalanced(teamId);
  });
});
