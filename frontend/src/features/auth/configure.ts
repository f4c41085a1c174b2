import { Amplify } from 'aws-amplify';
import { fetchAuthSession } from 'aws-amplify/auth';
import { setTokenProvider } from '../../lib/api';
import { needsRefresh } from './token-refresh';
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
  setTokenProvider(async ({ forceRefresh = false } = {}) => {
    try {
      let session = await fetchAuthSession({ forceRefresh });
      // Within 30 s of expiry: refresh now rather than send a token that may expire on the way.
      const tokens = session.tokens;
      if (!forceRefresh && tokens && needsRefresh(earliestExpiry(tokens))) {
        session = await fetchAuthSession({ forceRefresh: true });
      }
      return session.tokens?.idToken?.toString();
    } catch {
      return undefined;
    }
  });
}

/** The Cognito flow every password sign-in must use: `USER_PASSWORD_AUTH` locally, `USER_SRP_AUTH` in the cloud. */
export function authFlowType(): AuthFlowType {
  return flowType;
}

/** The earlier `exp` (seconds) of the access and ID tokens: the API gets the ID token, which may expire first. */
function earliestExpiry(tokens: {
  accessToken?: { payload: { exp?: number } };
  idToken?: { payload: { exp?: number } };
}): number | undefined {
  const exps = [tokens.accessToken?.payload.exp, tokens.idToken?.payload.exp].filter(
    (e): e is number => typeof e === 'number',
  );
  return exps.length ? Math.min(...exps) : undefined;
}
