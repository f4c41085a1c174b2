import { describe, expect, inject, it } from 'vitest';
import { getUser, grantCredits, listLedger } from '../../functions/adapters/ledger';
import { createTestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * "Regenerate (1 credit)" on the shared local stack: a one-slot generation through the same workflow (the Map
 * iterates the slots given in the execution input), 1 credit spent with the generation item, refunded on failure.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

describe('POST /api/headshots/{id}/regenerate', () => {
  it('makes one more headshot with the same style and background for 1 credit, beside the original', async () => {
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const keys = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama-720p.jpg')]);
    const created = await api(gatewayUrl, user.idToken, 'POST', '/api/generations', {
      style: 'creative',
      background: 'studio',
      referenceKeys: keys,
    });
    expect(created.status).toBe(202);
    const first = await pollGeneration(
      gatewayUrl,
      user.idToken,
      ((await created.json()) as { id: string }).id,
    );
    expect(first.final.status).toBe('succeeded');
    const original = first.final.headshots[2]!;

    // 0 credits left after the 6: the spec's message with the cost of 1, and nothing spent.
    const broke = await api(gatewayUrl, user.idToken, 'POST', `/api/headshots/${original.id}/regenerate`);
    expect(broke.status).toBe(402);
    expect(await broke.json()).toMatchObject({
      error: {
        code: 'INSUFFICIENT_CREDITS',
        message: 'Insufficient credits! You need 1 credit but only have 0.',
      },
    });

    await grantCredits({ sub: user.sub, amount: 2, ref: `test-grant-${user.sub}` });
    const res = await api(gatewayUrl, user.idToken, 'POST', `/api/headshots/${original.id}/regenerate`);
    expect(res.status).toBe(202);
    const started = (await res.json()) as { id: string; creditsReserved: number; credits: number };
    expect(started).toMatchObject({ creditsReserved: 1, credits: 1 });

    const { final } = await pollGeneration(gatewayUrl, user.idToken, started.id);
    expect(final).toMatchObject({
      status: 'succeeded',
      headshotsExpected: 1,
      regeneratedFrom: original.id,
      style: 'creative',
      background: 'studio',
      creditsRefunded: 0,
    });
    expect(final.headshots).toHaveLength(1);
    expect(final.headshots[0]!.id).not.toBe(original.id);

    const gallery = await api(gatewayUrl, user.idToken, 'GET', '/api/headshots');
    expect(((await gallery.json()) as { items: unknown[] }).items).toHaveLength(7);
    expect((await getUser(user.sub))?.credits).toBe(1);
    const spends = (await listLedger(user.sub)).filter((e) => e.reason === 'generation');
    expect(spends.map((e) => e.delta).sort((x, y) => x - y)).toEqual([-6, -1]);
    await expectLedgerBalanced(user.sub);
  });

  it("answers 404 for another user's headshot or an unknown id, and spends nothing", async () => {
    const [a, b] = await Promise.all([createTestUser(pool), createTestUser(pool)]);
    await api(gatewayUrl, a.idToken, 'GET', '/api/me');
    expect((await api(gatewayUrl, a.idToken, 'POST', '/api/headshots/01NOPE/regenerate')).status).toBe(404);
    expect((await api(gatewayUrl, b.idToken, 'POST', '/api/headshots/01NOPE/regenerate')).status).toBe(404);
    expect((await getUser(a.sub))?.credits).toBe(6);
  });
});
