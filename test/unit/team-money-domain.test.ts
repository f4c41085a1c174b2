import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assessCheckoutSession, type CheckoutSessionLike } from '../../functions/domain/checkout';
import {
  accountLabel,
  ledgerAccount,
  payerAccount,
  purchaseAccount,
  teamAccount,
  userAccount,
} from '../../functions/domain/ledger-account';
import {
  buildSeatCheckoutParams,
  checkoutAccount,
  expectedSeatPurchase,
  MAX_CHARGE_CENTS,
  SEAT_LINE_ITEM_DESCRIPTION,
  seatLineItemName,
  seatPurchaseFields,
} from '../../functions/domain/team-checkout';
import { TeamAllowanceUsedError, TeamNoSeatsError } from '../../functions/domain/team-errors';
import { assertLookKeepingEdit } from '../../functions/domain/team-look';
import {
  allowanceCounter,
  assertMaySpend,
  MAX_SEATS_PER_PURCHASE,
  seatPurchase,
  seatUseOf,
} from '../../functions/domain/team-seats';

/* The pure rules of a team's money (docs/teams.md "Money"): whose ledger, the seat purchase's session, seat uses. */

const TEAM = '01M9TEAM0000000000000000AB';

describe('ledger accounts', () => {
  it('a string is a customer’s sub; a generation is paid by its team or its owner; a payment’s purchase likewise', () => {
    expect(ledgerAccount('sub-1')).toEqual(userAccount('sub-1'));
    expect(accountLabel(teamAccount(TEAM))).toBe(`team:${TEAM}`);
    expect(payerAccount({ userId: 'sub-1' })).toEqual(userAccount('sub-1'));
    expect(payerAccount({ userId: 'sub-1', payer: 'user' })).toEqual(userAccount('sub-1'));
    expect(payerAccount({ userId: 'sub-1', payer: { team: TEAM } })).toEqual(teamAccount(TEAM));
    expect(purchaseAccount({ sub: 'buyer' })).toEqual(userAccount('buyer'));
    expect(purchaseAccount({ sub: 'buyer', teamId: TEAM })).toEqual(teamAccount(TEAM));
  });
});

describe('the seat purchase’s Checkout Session', () => {
  const params = (seats: number) =>
    buildSeatCheckoutParams({
      teamId: TEAM,
      teamName: 'Acme',
      seats,
      sub: 'buyer',
      email: 'buyer@acme.com',
      siteOrigin: 'http://localhost:5173/',
    });

  it('is one line item of quantity = seats at the server’s price, back to the team, without promotion codes', () => {
    const p = params(3);
    expect(p.line_items).toEqual([
      {
        price_data: {
          currency: 'usd',
          unit_amount: 700,
          product_data: { name: 'Team seat for Acme', description: SEAT_LINE_ITEM_DESCRIPTION },
        },
        quantity: 3,
      },
    ]);
    expect(p).not.toHaveProperty('allow_promotion_codes');
    expect(p.metadata).toEqual({
      user_id: 'buyer',
      pack_id: 'team-seats',
      team_id: TEAM,
      seats: '3',
      credits: '24',
      amount: '2100',
      package_name: 'Seats',
      user_email: 'buyer@acme.com',
    });
    expect(p.success_url).toBe(
      `http://localhost:5173/success?session_id={CHECKOUT_SESSION_ID}&redirect=team&team=${TEAM}`,
    );
    expect(p.cancel_url).toBe(`http://localhost:5173/teams/${TEAM}?checkout=cancelled`);
    expect(params(10).line_items[0].price_data.unit_amount).toBe(600);
  });

  it('refuses a seat count out of range and a team id that is not one', () => {
    expect(() => params(0)).toThrow(RangeError);
    expect(() => params(MAX_SEATS_PER_PURCHASE + 1)).toThrow(RangeError);
    expect(() =>
      buildSeatCheckoutParams({
        ...{ teamName: 'x', seats: 1, sub: 's', email: undefined, siteOrigin: 'http://x' },
        teamId: '../x',
      }),
    ).toThrow(RangeError);
    expect(seatPurchase(MAX_SEATS_PER_PURCHASE).totalCents).toBeLessThanOrEqual(MAX_CHARGE_CENTS);
  });

  it('uses the product spec’s words (§7, ours)', () => {
    const spec = readFileSync(new URL('../../docs/product-spec.md', import.meta.url), 'utf8');
    expect(spec).toContain(`'${seatLineItemName('{team}')}'`);
    expect(spec).toContain(`"${SEAT_LINE_ITEM_DESCRIPTION}"`);
  });

  it('is credited only with the recorded quantity and buyer, into the team its metadata names', () => {
    const paid = (fields: Partial<CheckoutSessionLike> = {}): CheckoutSessionLike => ({
      id: 'cs_test_1',
      status: 'complete',
      payment_status: 'paid',
      amount_total: 2100,
      amount_subtotal: 2100,
      currency: 'usd',
      client_reference_id: 'buyer',
      customer_email: null,
      metadata: params(3).metadata,
      payment_intent: 'pi_1',
      line_items: { data: [{ quantity: 3 }] },
      ...fields,
    });
    const expected = expectedSeatPurchase(3, 'buyer');
    expect(checkoutAccount(paid())).toEqual(teamAccount(TEAM));
    expect(checkoutAccount(paid({ metadata: { user_id: 'buyer' } }))).toEqual(userAccount('buyer'));
    expect(checkoutAccount(paid({ metadata: { ...params(3).metadata, team_id: 'TEAM#x' } }))).toBeUndefined();
    expect(assessCheckoutSession(paid(), expected)).toMatchObject({
      kind: 'fulfil',
      credits: 24,
      sub: 'buyer',
    });
    expect(assessCheckoutSession(paid({ line_items: { data: [{ quantity: 1 }] } }), expected).kind).toBe(
      'invalid',
    );
    expect(
      assessCheckoutSession(
        paid({ client_reference_id: 'other', metadata: { ...params(3).metadata, user_id: 'other' } }),
        expected,
      ).kind,
    ).toBe('invalid');
    // Without its pending purchase a seat session is never credited (no pack is called team-seats).
    expect(assessCheckoutSession(paid()).kind).toBe('invalid');
    expect(seatPurchaseFields(teamAccount(TEAM), expected, { sub: 'buyer', email: undefined })).toEqual({
      seats: 3,
      buyerSub: 'buyer',
      buyerEmail: '',
    });
    expect(
      seatPurchaseFields(userAccount('buyer'), expected, { sub: 'buyer', email: 'b@x' }),
    ).toBeUndefined();
  });
});

describe('a member’s seat', () => {
  it('a generation of 6 uses the generation, a one-slot one an edit; only a team-paid one uses a seat', () => {
    expect(allowanceCounter(6)).toBe('generationsUsed');
    expect(allowanceCounter(1)).toBe('editsUsed');
    expect(seatUseOf({ userId: 'm', payer: { team: TEAM } })).toEqual({
      teamId: TEAM,
      sub: 'm',
      counter: 'generationsUsed',
    });
    expect(seatUseOf({ userId: 'm', payer: { team: TEAM }, slotCount: 1 })?.counter).toBe('editsUsed');
    expect(seatUseOf({ userId: 'm' })).toBeUndefined();
  });

  it('refuses a used allowance before a short balance, each in its words', () => {
    const unused = { generationsUsed: 0, editsUsed: 0 };
    expect(() => assertMaySpend(unused, 6, 'generationsUsed')).not.toThrow();
    expect(() => assertMaySpend({ ...unused, generationsUsed: 1 }, 0, 'generationsUsed')).toThrow(
      new TeamAllowanceUsedError('generation', 2),
    );
    expect(() => assertMaySpend(unused, 5, 'generationsUsed')).toThrow(TeamNoSeatsError);
    expect(() => assertMaySpend({ ...unused, editsUsed: 2 }, 10, 'editsUsed')).toThrow(
      new TeamAllowanceUsedError('edits', 2),
    );
    expect(() => assertMaySpend(unused, 1, 'editsUsed')).not.toThrow();
  });

  it('lets a team headshot take only the edits that keep the look', () => {
    for (const kind of ['retouch', 'reframe', 'upscale'])
      expect(() => assertLookKeepingEdit(kind)).not.toThrow();
    expect(() => assertLookKeepingEdit('background')).toThrow(
      expect.objectContaining({ field: 'background' }),
    );
    expect(() => assertLookKeepingEdit('outfit')).toThrow(expect.objectContaining({ field: 'outfit' }));
  });
});
