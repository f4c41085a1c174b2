import { describe, expect, inject, it } from 'vitest';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api } from '../helpers/generation';

/*
 * Limits per caller, not for everyone (issue 26 item 4): through the stack's gateway, one caller who used up their
 * hourly quota on a route is answered 429 with Retry-After while another caller on the same route is still served.
 * Default limits: 10 data deletions, 30 regeneration attempts and 60 payment checks per hour.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

async function expect429(res: Response, quota: string, wording: RegExp): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  const body = (await res.json()) as { error: { code: string; message: string; details: unknown } };
  expect(body.error).toMatchObject({
    code: 'QUOTA_EXCEEDED',
    details: { quota, retryAfterSeconds: retryAfter },
  });
  expect(body.error.message).toMatch(wording);
}

/** Calls `call` `n` times one after the other (a person's retries, not a race) and returns the statuses. */
async function repeat(n: number, call: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call();
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

const pair = async (): Promise<[TestUser, TestUser]> => {
  const [a, b] = await Promise.all([createTestUser(pool), createTestUser(pool)]);
  // Both accounts exist (GET /api/me creates the user item), as they would after sign-up.
  for (const user of [a, b]) expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return [a, b];
};

describe('one caller at 429 while another caller still succeeds', () => {
  it('DELETE /api/me/data: 10 runs an hour per caller', async () => {
    const [noisy, other] = await pair();
    const deleteData = (user: TestUser) => api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(await repeat(10, () => deleteData(noisy))).toEqual(Array(10).fill(200));
    await expect429(await deleteData(noisy), 'data-deletions', /limit of 10 data deletions per hour/);
    const served = await deleteData(other);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual({ deleted: { headshots: 0, generations: 0, objects: 0 } });
  });

  it('GET /api/checkout/sessions/{id}: 60 payment checks an hour per caller, counted before Stripe is asked', async () => {
    const [noisy, other] = await pair();
    const buy = async (user: TestUser) => {
      const res = await api(gatewayUrl, user.idToken, 'POST', '/api/checkout/sessions', {
        packId: 'starter',
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    const [noisySession, otherSession] = await Promise.all([buy(noisy), buy(other)]);
    const verify = (user: TestUser, id: string) =>
      api(gatewayUrl, user.idToken, 'GET', `/api/checkout/sessions/${id}`);
    expect(await repeat(60, () => verify(noisy, noisySession))).toEqual(Array(60).fill(200));
    await expect429(
      await verify(noisy, noisySession),
      'checkout-verifications',
      /limit of 60 payment checks/,
    );
    const served = await verify(other, otherSession);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ status: 'unpaid', creditsAdded: 0, credits: 6 });
  });

  it('POST /api/headshots/{id}/regenerate: 30 attempts an hour per caller, counted before anything is read', async () => {
    const [noisy, other] = await pair();
    const regenerate = (user: TestUser) =>
      api(gatewayUrl, user.idToken, 'POST', '/api/headshots/01JB0000000000000000000000/regenerate');
    // An unknown headshot is a 404: the attempt still counts (each one reads the table).
    expect(await repeat(30, () => regenerate(noisy))).toEqual(Array(30).fill(404));
    await expect429(await regenerate(noisy), 'regenerations', /limit of 30 regenerations per hour/);
    // The other caller is not limited: their request is handled (and answered for what it is).
    expect((await regenerate(other)).status).toBe(404);
  });
});
