import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { cognitoSettings } from '../config/cognito';

/**
 * Verifies a Cognito JWT exactly as the HTTP API's JWT authorizer does (docs/architecture.md, "API"): RS256
 * signature against the pool's JWKS, `exp`/`nbf`, the issuer `<Cognito endpoint>/<poolId>`, and that `aud` (ID
 * token) or `client_id` (access token) is our web app client. The local gateway's authorizer and public routes that
 * want to know the caller (analytics) share it.
 */
export interface TokenVerifier {
  /** The verified payload, or `undefined` for a missing, malformed, expired or foreign token. Never throws. */
  verify(token: string | undefined): Promise<JwtPayload | undefined>;
}

/** Settings of {@link createTokenVerifier}. */
export interface TokenVerifierOptions {
  userPoolId: string;
  clientId: string;
  /** cognito-local's endpoint (`http://127.0.0.1:9229`); absent in the cloud (the regional Cognito issuer). */
  cognitoEndpoint?: string;
}

/**
 * Builds the verifier. In the cloud it is aws-jwt-verify's `CognitoJwtVerifier` (JWKS fetched and cached on first
 * use). cognito-local serves its JWKS over http, which aws-jwt-verify refuses to fetch, so locally the JWKS is
 * fetched here once and cached into a `JwtRsaVerifier`.
 *
 * @throws {Error} locally, when cognito-local's JWKS cannot be loaded
 */
export async function createTokenVerifier(options: TokenVerifierOptions): Promise<TokenVerifier> {
  let verify: (token: string) => Promise<JwtPayload>;
  if (options.cognitoEndpoint) {
    const issuer = `${options.cognitoEndpoint}/${options.userPoolId}`;
    const response = await fetch(`${issuer}/.well-known/jwks.json`);
    if (!response.ok) throw new Error(`Could not load the JWKS of ${issuer}: HTTP ${response.status}`);
    const verifier = JwtRsaVerifier.create({
      issuer,
      audience: null,
      // Never fetched (the JWKS is cached below); a token signed by an unknown key fails verification.
      jwksUri: 'https://cognito-local.invalid/.well-known/jwks.json',
      customJwtCheck: ({ payload }) => {
        const audience = payload.token_use === 'access' ? payload.client_id : payload.aud;
        if (audience !== options.clientId) throw new Error('Token was not issued for this app client');
      },
    });
    verifier.cacheJwks((await response.json()) as Jwks);
    verify = (token) => verifier.verify(token);
  } else {
    const verifier = CognitoJwtVerifier.create({
      userPoolId: options.userPoolId,
      clientId: options.clientId,
      tokenUse: null,
    });
    verify = (token) => verifier.verify(token);
  }
  return {
    async verify(token) {
      if (!token) return undefined;
      try {
        return await verify(token);
      } catch {
        return undefined;
      }
    },
  };
}

/** The token of an `Authorization: Bearer <jwt>` header, or `undefined`. */
export function bearerToken(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)$/i)?.[1];
}

let poolVerifier: Promise<TokenVerifier | undefined> | undefined;

/** The verifier of our user pool for this cold start; `undefined` when the pool is not configured. */
function poolTokenVerifier(): Promise<TokenVerifier | undefined> {
  const { COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID, COGNITO_ENDPOINT } = cognitoSettings();
  if (!COGNITO_USER_POOL_ID || !COGNITO_CLIENT_ID) return Promise.resolve(undefined);
  poolVerifier ??= createTokenVerifier({
    userPoolId: COGNITO_USER_POOL_ID,
    clientId: COGNITO_CLIENT_ID,
    cognitoEndpoint: COGNITO_ENDPOINT,
  }).catch((error: unknown) => {
    poolVerifier = undefined; // try again on the next request
    throw error;
  });
  return poolVerifier;
}

/**
 * The `sub` of an `Authorization: Bearer <jwt>` header's token when it is a valid token of our pool, verified as
 * the API's JWT authorizer verifies (for public routes that want to know a signed-in caller: analytics); `null` for
 * no token, an invalid, expired or foreign one, and when the pool is not configured (never trusted, never an error).
 *
 * @throws {Error} locally, when cognito-local's JWKS cannot be loaded (the next call tries again)
 */
export async function verifiedSub(authorization: string | undefined): Promise<string | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  const payload = await (await poolTokenVerifier())?.verify(token);
  return typeof payload?.sub === 'string' ? payload.sub : null;
}
