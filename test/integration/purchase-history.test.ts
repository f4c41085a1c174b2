import { describe, expect, it } from 'vitest';
import { purchasesPageSchema } from '../../functions/contracts';
import { type TestUser } from '../helpers/cognito';
import { usePaymentsStack } from '../helpers/payments-stack';
import { POPULAR_PACK_PURCHASE } from '../helpers/purchase-history';

/*
 * GET /api/purchases end to end (issue 27.7): the real handlers, the real `stripe` SDK and the local Checkout
 * provider. A paid purchase is listed with its pack, amount, status and the charge's receipt URL (Stripe's
 * `receipt_url`, stored at fulfilment), newest first, only to its buyer; a refund shows as `refunded`.
 */

const payments = usePaymentsStack({ deliverWebhooks: true });

async function history(user: TestUser, query = '') {
  const res = await payments.api(`/api/purchases${query}`, user.idToken);
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('GET /api/purchases', () => {
  it('lists the buyer’s purchases newest first with pack, amount, status and the receipt; nobody else’s', async () => {
    const user = await payments.buyer();
    const other = await payments.buyer();
    expect(await history(user)).toEqual({ status: 200, body: { items: [], nextCursor: null } });

    const first = (await payments.createSession(user, { packId: 'starter' })).id;
    await payments.provider.pay(first);
    const second = (await payments.createSession(user, { packId: 'popular' })).id;
    await payments.provider.pay(second);
    const free = (await payments.createSession(user, { packId: 'pro' })).id;
    await payments.provider.pay(free, { promotionCode: 'FREE100' });
    // A free session is credited when the success page verifies it.
    expect((await payments.api(`/api/checkout/sessions/${free}`, user.idToken)).status).toBe(200);

    const { status, body } = await history(user);
    expect(status).toBe(200);
    const page = purchasesPageSchema.parse(body);
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((p) => p.id)).toEqual([free, second, first]);
    expect(page.items[1]).toMatchObject(POPULAR_PACK_PURCHASE);
    expect(page.items[0]).toMatchObject({ amountCents: 0, receiptUrl: null });
    // The receipt is the charge's page on the provider, as Stripe's `receipt_url` is on pay.stripe.com.
    const receipt = await fetch(page.items[1]!.receiptUrl!);
    expect(receipt.status).toBe(200);
    const html = await receipt.text();
    expect(html).toContain('Receipt from');
    expect(html).toContain('$45.00');

    expect(await history(other)).toEqual({ status: 200, body: { items: [], nextCursor: null } });
    // A cursor names a purchase of the caller's only.
    expect((await history(other, `?cursor=${second}`)).status).toBe(400);
    expect((await history(user, '?cursor=not-a-session')).status).toBe(400);
  });

  it('shows a refunded purchase as refunded', async () => {
    const user = await payments.buyer();
    const id = (await payments.createSession(user, { packId: 'popular' })).id;
    await payments.provider.pay(id);
    await payments.provider.refund(id, {});
    const page = purchasesPageSchema.parse((await history(user)).body);
    expect(page.items[0]).toMatchObject({ id, status: 'refunded', creditsReversed: 60 });
  });
});
