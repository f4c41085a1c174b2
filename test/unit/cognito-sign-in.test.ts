import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startCognito,
  type RunningCognito,
} from '../../infrastructure/local/stand-ins/cognito/cognito-local';
import {
  INCORRECT_CREDENTIALS,
  USER_DISABLED,
} from '../../infrastructure/local/stand-ins/cognito/sign-in-answers';
import { findFreePort } from '../../infrastructure/local/support/ports';

/*
 * The local Cognito (cognito-local behind our front) answers a password sign-in as Cognito does for an app client
 * with PreventUserExistenceErrors ENABLED (infrastructure/local/stand-ins/cognito/sign-in-answers.ts): a deleted or
 * unknown user and a wrong password get 400 NotAuthorizedException "Incorrect username or password.", a disabled
 * user with the right password "User is disabled." (issue 35: a deleted account read "User not authorized").
 */

const PASSWORD = 'Passw0rd-local';
let cognito: RunningCognito;
let dataDir: string;
let client: CognitoIdentityProviderClient;
let userPoolId: string;
let clientId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cognito-sign-in-'));
  const quiet = { info: () => undefined, error: () => undefined, pipe: () => undefined };
  cognito = await startCognito({ port: await findFreePort(), dataDir, log: quiet });
  client = new CognitoIdentityProviderClient({
    endpoint: cognito.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const pool = await client.send(
    new CreateUserPoolCommand({ PoolName: 'sign-in', UsernameAttributes: ['email'] }),
  );
  userPoolId = pool.UserPool!.Id!;
  const app = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'web',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
    }),
  );
  clientId = app.UserPoolClient!.ClientId!;
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await cognito?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function createUser(email: string) {
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: email,
      UserAttributes: [{ Name: 'email', Value: email }],
      MessageAction: 'SUPPRESS',
    }),
  );
  await client.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolId,
      Username: email,
      Password: PASSWORD,
      Permanent: true,
    }),
  );
}

/** The sign-in's outcome: `signed-in`, or the error's name, message and HTTP status. */
async function signIn(email: string, password: string) {
  try {
    const out = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    return out.AuthenticationResult?.IdToken ? 'signed-in' : 'no tokens';
  } catch (error) {
    const e = error as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
}

const refused = (message: string) => ({ name: 'NotAuthorizedException', message, status: 400 });

describe('a password sign-in against the local Cognito', () => {
  it('signs in with the right password, and refuses a wrong one as Cognito words it', async () => {
    await createUser('ada@example.com');
    expect(await signIn('ada@example.com', PASSWORD)).toBe('signed-in');
    expect(await signIn('ada@example.com', 'wrong-Passw0rd')).toEqual(refused(INCORRECT_CREDENTIALS));
  });

  it('refuses an unknown account and a deleted one as a wrong password (no user existence errors)', async () => {
    expect(await signIn('nobody@example.com', PASSWORD)).toEqual(refused(INCORRECT_CREDENTIALS));
    await createUser('gone@example.com');
    await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: 'gone@example.com' }));
    expect(await signIn('gone@example.com', PASSWORD)).toEqual(refused(INCORRECT_CREDENTIALS));
  });

  it("keeps cognito-local's CORS headers on a rewritten answer, so a browser can read it", async () => {
    const answer = await fetch(cognito.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
        origin: 'http://localhost:5173',
      },
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: 'nobody@example.com', PASSWORD: PASSWORD },
      }),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(await answer.json()).toEqual({ __type: 'NotAuthorizedException', message: INCORRECT_CREDENTIALS });
  });

  it('says a disabled account is disabled only to its right password', async () => {
    await createUser('off@example.com');
    await client.send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: 'off@example.com' }));
    expect(await signIn('off@example.com', PASSWORD)).toEqual(refused(USER_DISABLED));
    expect(await signIn('off@example.com', 'wrong-Passw0rd')).toEqual(refused(INCORRECT_CREDENTIALS));
  });
});
