import { Amplify } from 'aws-amplify';
import { fetchAuthSession } from 'aws-amplify/auth';
import { setTokenProvider } from '../../lib/api';
import { authFlowTypeOf, type AuthFlowType, type RuntimeConfig } from '../../lib/runtime-config';

let flowType: AuthFlowType = 'USER_SRP_AUTH';

/**
 * Configures Amplify Auth from the runtime configuration and makes the API client send the ID token (it carries
 * `email`, which `GET /api/me` needs). `main.tsx` calls it once, before the first render. No secret is involved:
 * the pool and client ids are public, and the app client has no secret.
 *
 * Locally `cognitoEndpoint` points Amplify at cognito-local; in the cloud it is `null` and Amplify talks to the
 * regional Cognito endpoint. The sign-in flow cannot be configured globally in Amplify v6, so it is kept here and
 * passed per call (see {@link authFlowType}).
 */
export function configureAuth(config: RuntimeConfig): void {
  flowType = authFlowTypeOf(config);
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
  // fetchAuthSession refreshes the tokens first when the access token is about to expire.
  setTokenProvider(async () => {
    try {
      return (await fetchAuthSession()).tokens?.idToken?.toString();
    } catch {
      return undefined;
    }
  });
}

/** The Cognito flow every password sign-in must use: `USER_PASSWORD_AUTH` locally, `USER_SRP_AUTH` in the cloud. */
export function authFlowType(): AuthFlowType {
  return flowType;
}
