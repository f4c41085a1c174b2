import { describe, expect, it } from 'vitest';
import { CheckoutFailedError } from '../../../functions/domain/errors';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { TeamForbiddenError, TeamNotFoundError } from '../../../functions/domain/team-errors';
import { SEAT_CREDITS } from '../../../functions/domain/team-seats';
import { buyTeamSeats } from '../../../functions/use-cases/buy-team-seats';
import { fulfillCheckout } from '../../../functions/use-cases/fulfill-checkout';
import { listTeamPurchases } from '../../../functions/use-cases/list-team-purchases';
import { restorePurchase } from '../../../functions/use-cases/restore-purchase';
import { reversePurchase } from '../../../functions/use-cases/reverse-purchase';
import { verifyCheckoutSession } from '../../../functions/use-cases/verify-checkout-session';
import { failing } from './fakes/failures';
import { SEAT_TEAM, teamPaymentsWorld } from './fakes/team-payments';

/*
 * Seats (issue 37 §2, docs/teams.md "Money"): the owner or an admin buys seats through a Checkout Session of one
 * line item whose quantity is the seats, recorded under the team; the same idempotent fulfilment as a pack credits the
 * team's ledger (seats × 8), once, whoever calls it; the team's purchases list them.
 */

const { teamId, account } = SEAT_TEAM;
const owner = { sub: 'owner', email: 'owner@acme.com' };
const admin = { sub: 'admin', email: 'admin@acme.com' };

describe('buyTeamSeats: the Checkout Session of a team’s seats', () => {
  it('sells `seats` × the server’s seat price as one line item and records the pending purchase under the team', async () => {
    const { ports, stripe, purchases, quotas } = teamPaymentsWorld();
    const session = await buyTeamSeats(owner, teamId, 3, 'click-0001', ports);
    expect(stripe.sessions.get(session.id)).toMatchObject({
      amount_subtotal: 2100,
      client_reference_id: 'owner',
      line_items: { data: [{ quantity: 3 }] },
      metadata: { user_id: 'owner', pack_id: 'team-seats', team_id: teamId, seats: '3', credits: '24' },
    });
    expect(await purchases.getPendingPurchase(account, session.id)).toEqual({
      packId: 'team-seats',
      credits: 3 * SEAT_CREDITS,
      priceCents: 2100,
      currency: 'usd',
      quantity: 3,
      buyerSub: 'owner',
    });
    // Nothing under the buyer's own partition: the purchase is the team's.
    expect(await purchases.getPendingPurchase('owner', session.id)).toBeUndefined();
    expect(quotas.usedBy('owner', 'checkout-sessions')).toBe(1);
  });

  it('prices 8 seats or more at the lower rate (decision 029)', async () => {
    const { ports, stripe } = teamPaymentsWorld();
    const session = await buyTeamSeats(admin, teamId, 10, 'click-0002', ports);
    expect(stripe.sessions.get(session.id)?.amount_subtotal).toBe(6000);
  });

  it('answers a non-member 404 and a plain member 403, creating nothing', async () => {
    const { ports, stripe } = teamPaymentsWorld();
    await expect(
      buyTeamSeats({ sub: 'stranger', email: undefined }, teamId, 1, 'k-000001', ports),
    ).rejects.toBeInstanceOf(TeamNotFoundError);
    await expect(
      buyTeamSeats({ sub: 'member', email: undefined }, teamId, 1, 'k-000002', ports),
    ).rejects.toBeInstanceOf(TeamForbiddenError);
    expect(stripe.sessions.size).toBe(0);
  });

  it('counts against the buyer’s hourly quota and gives it back when Stripe fails', async () => {
    const failed = teamPaymentsWorld();
    const broken = { ...failed.ports, createCheckoutSession: failing() };
    await expect(buyTeamSeats(owner, teamId, 2, 'click-0003', broken)).rejects.toBeInstanceOf(
      CheckoutFailedError,
    );
    expect(failed.quotas.usedBy('owner', 'checkout-sessions')).toBe(0);
    const { ports } = teamPaymentsWorld();
    for (let i = 0; i < 10; i++) await buyTeamSeats(owner, teamId, 1, `click-1${i}00`, ports);
    await expect(buyTeamSeats(owner, teamId, 1, 'click-2000', ports)).rejects.toBeInstanceOf(
      QuotaExceededError,
    );
  });
});

describe('fulfilling a seat purchase', () => {
  it('credits the team’s ledger seats × 8 once, however often the webhook and the success page call', async () => {
    const { ports, stripe, ledger, purchases } = teamPaymentsWorld();
    ledger.seedUser('owner', 6);
    const { id } = await buyTeamSeats(owner, teamId, 3, 'click-0004', ports);
    stripe.pay(id, 'pi_seats');
    const first = await fulfillCheckout(id, ports);
    expect(first).toEqual({ status: 'paid', creditsAdded: 24, credits: 24, applied: true });
    // A replayed webhook, and the success page's verification, change nothing.
    expect(await fulfillCheckout(id, ports)).toMatchObject({ creditsAdded: 24, credits: 24, applied: false });
    expect(await verifyCheckoutSession(owner, id, ports)).toEqual({
      status: 'paid',
      creditsAdded: 24,
      credits: 24,
    });
    expect(ledger.balance(account)).toBe(24);
    expect(ledger.entriesOf(account, 'purchase').map((e) => [e.delta, e.ref])).toEqual([[24, id]]);
    expect(ledger.ledgerSum(account)).toBe(24);
    // The buyer's own credits are untouched.
    expect(ledger.balance('owner')).toBe(6);
    expect(purchases.purchase(account, id)).toMatchObject({
      packId: 'team-seats',
      credits: 24,
      amountTotal: 2100,
      team: { seats: 3, buyerSub: 'owner', buyerEmail: 'owner@acme.com' },
    });
    expect(await purchases.findPaymentIntent('pi_seats')).toEqual({
      sub: 'owner',
      checkoutSessionId: id,
      teamId,
    });
  });

  it('pays what the team owes first (a refunded purchase’s shortfall)', async () => {
    const { ports, stripe, ledger, store } = teamPaymentsWorld();
    store.teams.get(teamId)!.creditsOwed = 10;
    const { id } = await buyTeamSeats(owner, teamId, 2, 'click-0005', ports);
    stripe.pay(id);
    expect((await fulfillCheckout(id, ports)).credits).toBe(6);
    expect(store.teams.get(teamId)).toMatchObject({ balance: 6, creditsOwed: 0 });
    expect(ledger.entriesOf(account, 'debt_settlement').map((e) => e.delta)).toEqual([-10]);
  });

  it('never credits a session whose metadata names another team than its pending purchase’s', async () => {
    const { ports, stripe, ledger, store } = teamPaymentsWorld();
    store.teams.set('T2', { ...store.teams.get(teamId)!, teamId: 'T2' });
    const { id } = await buyTeamSeats(owner, teamId, 1, 'click-0006', ports);
    stripe.sessions.get(id)!.metadata!.team_id = 'T2';
    stripe.pay(id);
    expect(await fulfillCheckout(id, ports)).toMatchObject({ status: 'invalid', creditsAdded: 0 });
    expect(ledger.balance(account)).toBe(0);
    expect(store.teams.get('T2')?.balance).toBe(0);
  });

  it('never credits a session whose quantity is not the seats recorded', async () => {
    const { ports, stripe, ledger } = teamPaymentsWorld();
    const { id } = await buyTeamSeats(owner, teamId, 3, 'click-0007', ports);
    stripe.sessions.get(id)!.line_items = { data: [{ quantity: 4 }] };
    stripe.pay(id);
    expect((await fulfillCheckout(id, ports)).status).toBe('invalid');
    expect(ledger.balance(account)).toBe(0);
  });
});

describe('listTeamPurchases', () => {
  it('lists the team’s seat purchases newest first to its owner and admins, with seats and buyer', async () => {
    const { ports, stripe } = teamPaymentsWorld();
    const first = await buyTeamSeats(owner, teamId, 3, 'click-0008', ports);
    stripe.pay(first.id, 'pi_a');
    await fulfillCheckout(first.id, ports);
    const page = await listTeamPurchases(teamId, 'admin', undefined, ports);
    expect(page).toEqual({
      items: [
        expect.objectContaining({
          id: first.id,
          packId: 'team-seats',
          packName: 'Seats',
          credits: 24,
          amountCents: 2100,
          status: 'completed',
          seats: 3,
          buyerEmail: 'owner@acme.com',
          receiptUrl: 'https://pay.stripe.test/receipts/pi_a',
        }),
      ],
      nextCursor: null,
    });
  });

  it('answers a plain member 403 and a non-member 404', async () => {
    const { ports } = teamPaymentsWorld();
    await expect(listTeamPurchases(teamId, 'member', undefined, ports)).rejects.toBeInstanceOf(
      TeamForbiddenError,
    );
    await expect(listTeamPurchases(teamId, 'stranger', undefined, ports)).rejects.toBeInstanceOf(
      TeamNotFoundError,
    );
  });
});

describe('refunds and disputes of a seat purchase (the same rules as a pack)', () => {
  /** The team bought 3 seats (24 credits) through `pi_seats`; `spent` credits were spent from its ledger since. */
  async function paidSeats(spent = 0) {
    const world = teamPaymentsWorld();
    const { id } = await buyTeamSeats(owner, teamId, 3, 'click-0009', world.ports);
    world.stripe.pay(id, 'pi_seats');
    await fulfillCheckout(id, world.ports);
    if (spent > 0) await world.ledger.spendCredits({ account, amount: spent, ref: 'G1' });
    return { ...world, id };
  }
  const fullRefund = { kind: 'refund', amount: 2100, amountRefunded: 2100 } as const;

  it('takes back the unused seats’ credits from the team, never the buyer’s', async () => {
    const { ports, ledger, purchases, id } = await paidSeats();
    ledger.seedUser('owner', 6);
    expect(await reversePurchase('pi_seats', fullRefund, ports)).toEqual({
      checkoutSessionId: id,
      creditsTaken: 24,
      shortfall: 0,
      creditsReversed: 24,
    });
    expect(ledger.balance(account)).toBe(0);
    expect(ledger.ledgerSum(account)).toBe(0);
    expect(ledger.balance('owner')).toBe(6);
    expect(purchases.purchase(account, id)).toMatchObject({ status: 'refunded', creditsReversed: 24 });
    // A replayed refund takes nothing more.
    expect((await reversePurchase('pi_seats', fullRefund, ports)).creditsTaken).toBe(0);
  });

  it('a partial refund of one seat takes its share back, rounded up', async () => {
    const { ports, ledger } = await paidSeats();
    const oneSeat = { kind: 'refund', amount: 2100, amountRefunded: 700 } as const;
    expect((await reversePurchase('pi_seats', oneSeat, ports)).creditsTaken).toBe(8);
    expect(ledger.balance(account)).toBe(16);
  });

  it('what members already spent becomes the team’s debt, paid from its next purchase', async () => {
    const { ports, ledger, store, stripe } = await paidSeats(6);
    expect(await reversePurchase('pi_seats', fullRefund, ports)).toMatchObject({
      creditsTaken: 18,
      shortfall: 6,
    });
    expect(store.teams.get(teamId)).toMatchObject({
      balance: 0,
      creditsOwed: 6,
      flagReason: 'reversal-exceeds-balance',
    });
    const next = await buyTeamSeats(owner, teamId, 1, 'click-0010', ports);
    stripe.pay(next.id, 'pi_next');
    expect((await fulfillCheckout(next.id, ports)).credits).toBe(2);
    expect(store.teams.get(teamId)).toMatchObject({ balance: 2, creditsOwed: 0 });
    expect(ledger.ledgerSum(account)).toBe(2);
  });

  it('a dispute takes everything left; won, the credits come back (the debt paid first)', async () => {
    const { ports, ledger, store, id } = await paidSeats(6);
    const dispute = { kind: 'dispute', disputeId: 'dp_1' } as const;
    expect(await reversePurchase('pi_seats', dispute, ports)).toMatchObject({
      creditsTaken: 18,
      shortfall: 6,
    });
    const won = { kind: 'dispute-closed', disputeId: 'dp_1', status: 'won' } as const;
    expect(await restorePurchase('pi_seats', won, 'evt_1', ports)).toEqual({
      checkoutSessionId: id,
      creditsRestored: 24,
      creditsReversed: 0,
    });
    expect(store.teams.get(teamId)).toMatchObject({ balance: 18, creditsOwed: 0 });
    expect(ledger.ledgerSum(account)).toBe(18);
  });
});
