import { describe, expect, inject, it } from 'vitest';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * The whole local payment flow over HTTP, on the stack exactly as `npm start` wires it: the stack's gateway, its
 * local Checkout provider (started because no STRIPE_SECRET_KEY is configured), its per-start webhook secret, and
 * the provider's signed webhook to the gateway. Nothing here talks to the provider except through the session's
 * `url` and the page's forms, as a browser would.
 */

const { gatewayUrl, runtimeConfig, env } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

const api = (path: string, user: TestUser, init: RequestInit = {}) =>
  fetch(`${gatewayUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
  });

const balance = async (user: TestUser) =>
  ((await (await api('/api/me', user)).json()) as { credits: number }).credits;

async function startCheckout(user: TestUser, packId: string) {
  const res = await api('/api/checkout/sessions', user, { method: 'POST', body: JSON.stringify({ packId }) });
  expect(res.status).toBe(200);
  const session = (await res.json()) as { id: string; url: string };
  const page = await fetch(session.url);
  expect(page.status).toBe(200);
  const html = await page.text();
  /** Submits one of the page's forms (by its button's action) like a browser, without following the redirect. */
  const submit = async (action: 'pay' | 'decline' | 'cancel') => {
    const target = new RegExp(`action="([^"]+/${action})"`).exec(html)?.[1];
    expect(target, `form ${action}`).toBeDefined();
    const res = await fetch(new URL(target!, session.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return res.headers.get('location');
  };
  return { ...session, html, submit };
}

describe('local payment flow over HTTP (stack wiring)', () => {
  it('the stack runs the local provider with a generated webhook secret and no Stripe key', () => {
    expect(env.STRIPE_SECRET_KEY).toBe('');
    expect(env.STRIPE_API_BASE).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
  });

  it('create → hosted page → Pay → signed webhook → balance 66 → verification says +60, 66', async () => {
    const user = await createTestUser(pool);
    expect(await balance(user)).toBe(6);
    const checkout = await startCheckout(user, 'popular');
    expect(checkout.html).toContain('Local test checkout');
    expect(checkout.html).toContain('60 AI Headshot Credits');
    expect(checkout.html).toContain('$45.00');
    expect(checkout.html).toContain(user.email);

    const location = await checkout.submit('pay');
    expect(location).toBe(`${env.SITE_ORIGIN}/success?session_id=${checkout.id}&redirect=dashboard`);
    // The provider waits for the webhook's answer before redirecting: the credit is there when the page loads.
    expect(await balance(user)).toBe(66);

    const verification = await api(`/api/checkout/sessions/${checkout.id}`, user);
    expect(verification.status).toBe(200);
    expect(await verification.json()).toEqual({ status: 'paid', creditsAdded: 60, credits: 66 });
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'purchase')).toHaveLength(1);
    await expectLedgerBalanced(user.sub);

    // Paying again (a double-submitted form) changes nothing.
    expect(await checkout.submit('pay')).toBe(location);
    expect(await balance(user)).toBe(66);
  });

  it('Decline stays on the hosted page, unpaid, as Stripe does; Cancel returns to the not-charged page of the pack; neither credits', async () => {
    const user = await createTestUser(pool);
    const declined = await startCheckout(user, 'pro');
    expect(await declined.submit('decline')).toBe(`/pay/${declined.id}`);
    expect(await (await api(`/api/checkout/sessions/${declined.id}`, user)).json()).toEqual({
      status: 'unpaid',
      creditsAdded: 0,
      credits: 6,
    });
    const page = await (await fetch(declined.url)).text();
    expect(page).toContain('Your card was declined');

    const cancelled = await startCheckout(user, 'starter');
    expect(await cancelled.submit('cancel')).toBe(`${env.SITE_ORIGIN}/checkout/cancelled?pack=starter`);
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'purchase')).toEqual([]);
    await expectLedgerBalanced(user.sub);
  });
});
