import { Amplify } from 'aws-amplify';
import type { RuntimeConfig } from '../runtime-config';

/**
 * The Amplify side of sign-in, loaded on demand by `configure.ts` (`loadSession()`), never with the first page:
 * Amplify is the largest library the SPA has, and the landing and pricing pages render without it.
 */
export { fetchAuthSession, signOut } from 'aws-amplify/auth';
export type { AuthSession } from 'aws-amplify/auth';
export { Hub } from 'aws-amplify/utils';

/**
 * Configures Amplify Auth from the runtime configuration. No secret is involved: the pool and client ids are public,
 * and the app client has no secret. Locally `cognitoEndpoint` points Amplify at cognito-local; in the cloud it is
 * `null` and Amplify talks to the regional Cognito endpoint.
 */
export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        userPoolEndpoint: config.cognitoEndpoint ?? undefined,
        loginWith: { email: true },
        signUpVerificationMethod: 'code',
      },
    },
  });
}
