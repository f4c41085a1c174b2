import {
  AdminConfirmSignUpCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomUUID } from 'node:crypto';

/** Tokens of a signed-in test user. */
export interface TestUser {
  email: string;
  sub: string;
  idToken: string;
  accessToken: string;
}

/**
 * Signs up a confirmed user in the local user pool and signs them in with USER_PASSWORD_AUTH, as the SPA does
 * locally. Uses the emulators' endpoints from `process.env` (set by the test setup).
 */
export async function createTestUser(options: {
  userPoolId: string;
  clientId: string;
  email?: string;
  password?: string;
}): Promise<TestUser> {
  const client = new CognitoIdentityProviderClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    endpoint: process.env.COGNITO_ENDPOINT,
  });
  const email = options.email ?? `user-${randomUUID().slice(0, 8)}@example.com`;
  const password = options.password ?? 'Headshots-2026';
  const signUp = await client.send(
    new SignUpCommand({
      ClientId: options.clientId,
      Username: email,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  );
  if (!signUp.UserConfirmed) {
    await client.send(new AdminConfirmSignUpCommand({ UserPoolId: options.userPoolId, Username: email }));
  }
  const auth = await client.send(
    new InitiateAuthCommand({
      ClientId: options.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const idToken = auth.AuthenticationResult?.IdToken;
  const accessToken = auth.AuthenticationResult?.AccessToken;
  if (!idToken || !accessToken) throw new Error('cognito-local returned no tokens');
  const sub = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()).sub as string;
  client.destroy();
  return { email, sub, idToken, accessToken };
}
