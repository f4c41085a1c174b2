import {
  AdminConfirmSignUpCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { BrowserContextOptions } from 'playwright-core';
import { inject } from 'vitest';

/*
 * Accounts for the browser tests whose subject is not signing up: made through the user pool's API (cognito-local)
 * and handed to the browser as the session Amplify keeps after the sign-up form, so a test starts signed in without
 * loading the sign-up screen and running the form's sign-up and sign-in in the page (about 3 s a sign-up on a busy
 * 2-core machine; issue 32, docs/decisions/014-fast-feedback.md "e2e CPU"). The form itself is auth.test.ts's subject,
 * and accessibility.test.ts signs up through it.
 */

/** The e-mail and password of an account to make (helpers.ts `E2eUser`). */
interface Credentials {
  email: string;
  password: string;
}

/** A browser context's stored state: Amplify's session in the site's `localStorage`. */
export type SessionState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/**
 * Signs `user` up in the e2e stack's user pool (confirmed at once: the local pre-sign-up trigger confirms, else an
 * admin confirmation) and signs them in with USER_PASSWORD_AUTH, the flow the SPA uses locally; returns the
 * `localStorage` of the site's origin as Amplify v6 writes it after the sign-up form signs in (its TokenStore keys
 * `CognitoIdentityServiceProvider.<client id>.<login id>.<token>`, the login id being the e-mail, as seen after a
 * sign-up through the form), for `browser.newContext({ storageState })`.
 *
 * @throws the pool's error, e.g. `UsernameExistsException` for an e-mail already signed up
 */
export async function apiSignUp(user: Credentials): Promise<SessionState> {
  const { runtimeConfig } = inject('e2eStack');
  const clientId = runtimeConfig.userPoolClientId;
  const cognito = new CognitoIdentityProviderClient({
    region: runtimeConfig.region,
    endpoint: runtimeConfig.cognitoEndpoint ?? undefined,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const signUp = await cognito.send(
      new SignUpCommand({
        ClientId: clientId,
        Username: user.email,
        Password: user.password,
        UserAttributes: [{ Name: 'email', Value: user.email }],
      }),
    );
    if (!signUp.UserConfirmed) {
      await cognito.send(
        new AdminConfirmSignUpCommand({ UserPoolId: runtimeConfig.userPoolId, Username: user.email }),
      );
    }
    const { AuthenticationResult: tokens } = await cognito.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
      }),
    );
    if (!tokens?.IdToken || !tokens.AccessToken || !tokens.RefreshToken)
      throw new Error('cognito-local returned no tokens');
    const prefix = `CognitoIdentityServiceProvider.${clientId}`;
    const own = `${prefix}.${user.email}`;
    const localStorage = [
      { name: `${prefix}.LastAuthUser`, value: user.email },
      { name: `${own}.accessToken`, value: tokens.AccessToken },
      { name: `${own}.idToken`, value: tokens.IdToken },
      { name: `${own}.refreshToken`, value: tokens.RefreshToken },
      { name: `${own}.clockDrift`, value: '0' },
      {
        name: `${own}.signInDetails`,
        value: JSON.stringify({ loginId: user.email, authFlowType: 'USER_PASSWORD_AUTH' }),
      },
    ];
    return { cookies: [], origins: [{ origin: new URL(inject('baseUrl')).origin, localStorage }] };
  } finally {
    cognito.destroy();
  }
}
