import {
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { listLedger } from '../../functions/adapters/ledger';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * The free credits are once per person: an account deleted and made again — same address, in capitals, with a
 * +tag — starts at 0, through the real Cognito post-confirmation trigger and GET /api/me on the emulators.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const cognito = new CognitoIdentityProviderClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  endpoint: process.env.COGNITO_ENDPOINT,
});
afterAll(() => cognito.destroy());

async function me(user: TestUser) {
  const res = await api(gatewayUrl, user.idToken, 'GET', '/api/me');
  expect(res.status).toBe(200);
  return (await res.json()) as { credits: number; signupBonus: string };
}

const deleteCognitoUser = (email: string) =>
  cognito.send(new AdminDeleteUserCommand({ UserPoolId: pool.userPoolId, Username: email }));

describe('sign-up bonus once per person', () => {
  it('gives 6 credits to the first account and 0 to accounts re-created with the same, upper-cased or +tag address', async () => {
    const local = `bonus.${randomUUID().slice(0, 8)}`;
    const first = await createTestUser({ ...pool, email: `${local}@example.com` });
    expect(await me(first)).toMatchObject({ credits: 6, signupBonus: 'granted' });

    const variants = [
      `${local}@example.com`,
      `${local.toUpperCase()}@EXAMPLE.COM`,
      `${local}+again@example.com`,
    ];
    let previous = `${local}@example.com`;
    for (const email of variants) {
      await deleteCognitoUser(previous);
      const again = await createTestUser({ ...pool, email });
      expect(again.sub).not.toBe(first.sub);
      expect(await me(again)).toMatchObject({ credits: 0, signupBonus: 'already-claimed' });
      expect(await listLedger(again.sub)).toEqual([]);
      await expectLedgerBalanced(again.sub);
      previous = email;
    }

    // Someone else still gets theirs.
    const other = await createTestUser({ ...pool, email: `other.${local}@example.com` });
    expect(await me(other)).toMatchObject({ credits: 6, signupBonus: 'granted' });
  });

  it('gives no free credits to a disposable address, says why, and claims nothing for the person', async () => {
    const local = `throwaway.${randomUUID().slice(0, 8)}`;
    // A listed disposable service, and a subdomain of one (such services hand them out freely).
    for (const email of [`${local}@mailinator.com`, `${local}@inbox.Guerrillamail.com`]) {
      const user = await createTestUser({ ...pool, email });
      expect(await me(user)).toMatchObject({ credits: 0, signupBonus: 'disposable-address' });
      expect(await listLedger(user.sub)).toEqual([]);
      await expectLedgerBalanced(user.sub);
    }
    // The same person at a lasting address gets theirs: the disposable sign-up claimed no marker.
    const lasting = await createTestUser({ ...pool, email: `${local}@example.com` });
    expect(await me(lasting)).toMatchObject({ credits: 6, signupBonus: 'granted' });
  });
});
