import { bearerToken, createTokenVerifier } from '../../../../functions/adapters/token-verifier';
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

/** Verified tokens remembered (each a few hundred bytes). */
const VERIFIED_CACHE_SIZE = 1000;

/**
 * A local stand-in for the HTTP API's Cognito JWT authorizer. Like the cloud one it requires
 * `Authorization: Bearer <jwt>` and verifies it with the shared token verifier (signature against the pool's JWKS,
 * `exp`/`nbf`, issuer, app client) — the same code public routes use to recognise a signed-in caller.
 *
 * A token that verified is remembered until its `exp`: the same bytes verify the same way until then, and like the
 * cloud authorizer (which checks signature and time, not revocation) a signed-out token stays valid until it
 * expires. This keeps the RSA signature check (~0.3 ms) off every request of a polling client or a load test.
 */
export async function createCognitoJwtAuthorizer(options: {
  cognitoEndpoint: string;
  userPoolId: string;
  clientId: string;
}): Promise<JwtAuthorizer> {
  const verifier = await createTokenVerifier(options);
  const verified = new Map<string, { expiresAt: number; claims: JwtClaims; scopes: string[] }>();
  return {
    async authorize(header) {
      const token = bearerToken(header);
      const known = token === undefined ? undefined : verified.get(token);
      if (known && known.expiresAt > Date.now()) return { claims: known.claims, scopes: known.scopes };
      const payload = await verifier.verify(token);
      if (!payload) return undefined;
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
      const claims = claimsAsApiGatewayDoes(payload);
      if (token !== undefined && typeof payload.exp === 'number') {
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
        verified.set(token, { expiresAt: payload.exp * 1000, claims, scopes });
      }
      return { claims, scopes };
    },
  };
}
