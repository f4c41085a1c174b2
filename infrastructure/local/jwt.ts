import { JwtRsaVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';

/** A verified JWT's claims, as API Gateway hands them to a handler: every value a string. */
export type JwtClaims = Record<string, string>;

/** Verifies a bearer token the way the cloud HTTP API's JWT authorizer does; `undefined` means 401. */
export interface JwtAuthorizer {
  authorize(
    authorizationHeader: string | undefined,
  ): Promise<{ claims: JwtClaims; scopes: string[] } | undefined>;
}

/**
 * API Gateway passes JWT claims as strings: numbers and booleans stringified, arrays as `[a b]`
 * (AWS docs, "Controlling access to HTTP APIs with JWT authorizers").
 */
export function claimsAsApiGatewayDoes(payload: JwtPayload): JwtClaims {
  const claims: JwtClaims = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    claims[key] = Array.isArray(value)
      ? `[${value.join(' ')}]`
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  }
  return claims;
}

/**
 * A local stand-in for the HTTP API's Cognito JWT authorizer. Like the cloud one it requires
 * `Authorization: Bearer <jwt>`, checks the RS256 signature against the pool's JWKS, `exp`/`nbf`, the issuer
 * (`<cognito endpoint>/<poolId>`), and that `aud` (ID token) or `client_id` (access token) is our app client.
 *
 * cognito-local serves its JWKS over http, which aws-jwt-verify refuses to fetch, so the JWKS is fetched here once
 * and handed to the verifier with `cacheJwks`.
 */
export async function createCognitoJwtAuthorizer(options: {
  cognitoEndpoint: string;
  userPoolId: string;
  clientId: string;
}): Promise<JwtAuthorizer> {
  const issuer = `${options.cognitoEndpoint}/${options.userPoolId}`;
  const response = await fetch(`${issuer}/.well-known/jwks.json`);
  if (!response.ok) throw new Error(`Could not load the JWKS of ${issuer}: HTTP ${response.status}`);
  const jwks = (await response.json()) as Jwks;
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
  verifier.cacheJwks(jwks);
  return {
    async authorize(header) {
      const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
      if (!token) return undefined;
      try {
        const payload = await verifier.verify(token);
        const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
        return { claims: claimsAsApiGatewayDoes(payload), scopes };
      } catch {
        return undefined;
      }
    },
  };
}
