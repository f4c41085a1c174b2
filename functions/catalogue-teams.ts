import type { FunctionSpec, SecretName, TableAccess } from './catalogue-types';

/*
 * The teams' functions in THE function catalogue (./catalogue.ts spreads them into its list): one per team route's
 * handler module (functions/http/routes.ts), each with the access its code needs (docs/teams.md).
 */

const READ_WRITE: readonly TableAccess[] = ['read', 'write'];
const STRIPE: readonly SecretName[] = ['stripeSecretKey', 'stripeWebhookSecret'];

/** The team routes' functions (docs/teams.md, "Routes"): every route reads the caller's member item first. */
export const TEAM_FUNCTIONS: readonly FunctionSpec[] = [
  { handler: 'http/create-team', kind: 'http', access: { table: READ_WRITE } },
  { handler: 'http/list-teams', kind: 'http', access: { table: ['read'] } },
  // The team and its gallery (GET …/headshots): only reads, and presigns every current member's shared files.
  { handler: 'http/get-team', kind: 'http', access: { table: ['read'], results: ['read'] } },
  { handler: 'http/update-team', kind: 'http', access: { table: READ_WRITE } },
  { handler: 'http/set-team-member-role', kind: 'http', access: { table: READ_WRITE } },
  // A member's place in the team (http/team-membership: leaving or removal, sharing and unsharing): leaving or removal
  // deletes the "my teams" item and the member's shared headshots' items; a share is one transaction answered with
  // presigned GETs; unsharing deletes the share's two items.
  {
    handler: 'http/team-membership',
    kind: 'http',
    access: { table: ['read', 'write', 'delete'], results: ['read'] },
  },
  { handler: 'http/create-invite-link', kind: 'http', access: { table: READ_WRITE } },
  { handler: 'http/list-invite-links', kind: 'http', access: { table: ['read'] } },
  { handler: 'http/revoke-invite-link', kind: 'http', access: { table: READ_WRITE } },
  { handler: 'http/send-invitations', kind: 'http', access: { table: READ_WRITE, mail: true } },
  { handler: 'http/resend-invitation', kind: 'http', access: { table: READ_WRITE, mail: true } },
  { handler: 'http/get-invite', kind: 'http', access: { table: ['read'] } },
  { handler: 'http/accept-invite', kind: 'http', access: { table: READ_WRITE } },
  // Seats: the buyer's quota is a transaction, the pending purchase a put; Stripe creates the session.
  {
    handler: 'http/create-team-checkout-session',
    kind: 'http',
    access: { table: READ_WRITE, secrets: STRIPE },
  },
  { handler: 'http/list-team-purchases', kind: 'http', access: { table: ['read'] } },
];
