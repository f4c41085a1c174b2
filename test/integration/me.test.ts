import { describe, expect, inject, it } from 'vitest';
import { getUser, listLedger, spendCredits } from '../../functions/adapters/ledger';
import { createTestUser } from '../helpers/cognito';
import { expectLedgerBalanced } from '../helpers/ledger';

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

const me = (token: string) =>
  fetch(`${gatewayUrl}/api/me`, { headers: { Authorization: `Bearer ${token}` } });

describe('GET /api/me', () => {
  it('creates the user on 10 concurrent first calls: one item, 6 credits, one signup_bonus', async () => {
    const user = await createTestUser(pool);
    const responses = await Promise.all(Array.from({ length: 10 }, () => me(user.idToken)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const body of bodies) {
      expect(body).toEqual({
        id: user.sub,
        email: user.email,
        displayName: user.email.split('@')[0],
        credits: 6,
        signupBonus: 'granted',
        emailWhenReady: true,
        createdAt: bodies[0].createdAt,
      });
    }
    const ledger = await listLedger(user.sub);
    expect(ledger.filter((e) => e.reason === 'signup_bonus')).toHaveLength(1);
    await expectLedgerBalanced(user.sub);
  });

  it("answers 401 without a token and only ever shows the caller's own record", async () => {
    expect((await fetch(`${gatewayUrl}/api/me`)).status).toBe(401);
    const [a, b] = await Promise.all([createTestUser(pool), createTestUser(pool)]);
    await me(a.idToken);
    await me(b.idToken);
    await spendCredits({ sub: b.sub, amount: 6, ref: 'b-spend' });
    const asA = await (await me(a.idToken)).json();
    expect(asA).toMatchObject({ id: a.sub, email: a.email, credits: 6 });
    expect((await getUser(b.sub))?.credits).toBe(0);
    const asB = await (await me(b.idToken)).json();
    expect(asB).toMatchObject({ id: b.sub, credits: 0 });
    await expectLedgerBalanced(a.sub);
    await expectLedgerBalanced(b.sub);
  });
});
