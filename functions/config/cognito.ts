import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { optionalString } from './fields';

/**
 * The user pool and web app client whose tokens the public routes recognise (the API Gateway authorizer verifies
 * the private routes' JWTs itself), and the admin calls on that pool (docs/architecture.md, auth).
 */
const cognito = defineSettings(
  z.object({
    /** The user pool's id; the stack sets it. */
    COGNITO_USER_POOL_ID: optionalString,
    /** The web app client's id; the stack sets it. */
    COGNITO_CLIENT_ID: optionalString,
    /** cognito-local's endpoint; unset in the cloud (tokens are then verified against the regional issuer). */
    COGNITO_ENDPOINT: z.optional(z.url()),
  }),
);

/** The user pool, its client and the local endpoint. */
export type CognitoSettings = ReturnType<typeof cognito.load>;
/** The Cognito settings of this execution environment (parsed once per cold start). */
export const cognitoSettings = cognito.load;
/** Parses an environment's Cognito settings. @throws {ConfigError} naming each bad variable. */
export const parseCognitoSettings = cognito.parse;
