import {
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { BONUS_SK, bonusPk } from '../../functions/adapters/support/keys';
import { listLedger } from '../../functions/adapters/ledger';
import { storageSettings } from '../../functions/config/storage';
import { bonusKey, legacyBonusKey, previousBonusKey } from '../../functions/domain/signup-bonus';
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

  it('keys the marker with the pepper, and a marker of the older unsalted form still blocks a second bonus', async () => {
    const TableName = storageSettings().TABLE_NAME;
    const marker = (key: string) =>
      documentClient().send(new GetCommand({ TableName, Key: { PK: bonusPk(key), SK: BONUS_SK } }));
    const pepper = process.env.SIGNUP_BONUS_PEPPER ?? '';
    expect(pepper).not.toBe('');

    // A new person: the stored marker is the HMAC, and neither the plain SHA-256 nor the address is stored.
    const local = `pepper.${randomUUID().slice(0, 8)}`;
    const email = `${local}@example.com`;
    const first = await createTestUser({ ...pool, email });
    expect(await me(first)).toMatchObject({ credits: 6, signupBonus: 'granted' });
    const plain = createHash('sha256').update(`headshot-studio:signup-bonus:${email}`).digest('hex');
    expect(legacyBonusKey(email)).toBe(plain);
    expect((await marker(bonusKey(email, pepper))).Item).toMatchObject({ type: 'signupBonus' });
    expect((await marker(plain)).Item).toBeUndefined();
    expect(bonusKey(email, pepper)).not.toBe(plain);
    expect(JSON.stringify((await marker(bonusKey(email, pepper))).Item)).not.toContain(local);

    // Someone who claimed before the pepper existed has only the old marker: no second bonus.
    const earlier = `legacy.${randomUUID().slice(0, 8)}@example.com`;
    await documentClient().send(
      new PutCommand({
        TableName,
        Item: {
          PK: bonusPk(legacyBonusKey(earlier)),
          SK: BONUS_SK,
          type: 'signupBonus',
          claimedAt: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
    const again = await createTestUser({ ...pool, email: earlier.toUpperCase() });
    expect(await me(again)).toMatchObject({ credits: 0, signupBonus: 'already-claimed' });
    expect(await listLedger(again.sub)).toEqual([]);
    await expectLedgerBalanced(again.sub);
    // The withheld bonus wrote no new marker either.
    expect((await marker(bonusKey(earlier, pepper))).Item).toBeUndefined();
  });

  it('folds the spellings of one mailbox, and finds a marker claimed before the mailbox rules (decision 020)', async () => {
    const TableName = storageSettings().TABLE_NAME;
    const pepper = process.env.SIGNUP_BONUS_PEPPER ?? '';
    const base = `mbx${randomUUID().slice(0, 8)}`;
    // A Yahoo keyword address is its base name: the second spelling gets nothing.
    const first = await createTestUser({ ...pool, email: `${base}-shop@yahoo.com` });
    expect(await me(first)).toMatchObject({ credits: 6, signupBonus: 'granted' });
    const second = await createTestUser({ ...pool, email: `${base}-news@yahoo.com` });
    expect(await me(second)).toMatchObject({ credits: 0, signupBonus: 'already-claimed' });

    // Someone who claimed as name-keyword@yahoo.com before '-' was folded holds only that address's old marker.
    const earlier = `old${randomUUID().slice(0, 8)}-deal@yahoo.com`;
    const before = previousBonusKey(earlier, pepper)!;
    expect(before).not.toBe(bonusKey(earlier, pepper));
    await documentClient().send(
      new PutCommand({
        TableName,
        Item: {
          PK: bonusPk(before),
          SK: BONUS_SK,
          type: 'signupBonus',
          claimedAt: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
    const again = await createTestUser({ ...pool, email: earlier });
    expect(await me(again)).toMatchObject({ credits: 0, signupBonus: 'already-claimed' });
    await expectLedgerBalanced(again.sub);
  });
});
