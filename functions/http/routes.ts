/**
 * How API Gateway authorises a route:
 * - `jwt`: the Cognito JWT authorizer (ID or access token of our app client) must pass; claims reach the handler;
 * - `public`: no authorizer;
 * - `stripe-signature`: no authorizer; the handler itself verifies the `Stripe-Signature` header.
 */
export type RouteAuth = 'jwt' | 'public' | 'stripe-signature';

/** HTTP methods the API uses. */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One API route. */
export interface RouteDefinition {
  method: RouteMethod;
  /** API Gateway route path, with `{name}` path parameters, always under `/api` (the site's own origin). */
  path: `/api/${string}`;
  /**
   * The handler module under `functions/`, without extension; it exports `handler`. The CDK Api construct builds one
   * NodejsFunction per distinct module; the local gateway imports it in-process.
   */
  handler: string;
  auth: RouteAuth;
}

/**
 * THE route table: the single source the local gateway serves and the CDK Api construct deploys, so cloud and local
 * routes cannot drift (docs/architecture.md §1, §3).
 */
export const routes = [
  { method: 'GET', path: '/api/health', handler: 'http/health', auth: 'public' },
  { method: 'GET', path: '/api/packs', handler: 'http/packs', auth: 'public' },
  { method: 'GET', path: '/api/me', handler: 'http/me', auth: 'jwt' },
  // Preferences: the dashboard's "E-mail me when my headshots are ready" toggle.
  { method: 'PATCH', path: '/api/me', handler: 'http/update-me', auth: 'jwt' },
  // "Delete my account": the Cognito user, photos, headshots and generations; the ledger kept under a pseudonym.
  { method: 'DELETE', path: '/api/me', handler: 'http/delete-account', auth: 'jwt' },
  // Payments: Stripe Checkout creation, the payment result page's verification, and Stripe's webhook.
  { method: 'POST', path: '/api/checkout/sessions', handler: 'http/create-checkout-session', auth: 'jwt' },
  { method: 'GET', path: '/api/checkout/sessions/{id}', handler: 'http/get-checkout-session', auth: 'jwt' },
  // The dashboard's purchase history: date, pack, amount, status and Stripe's receipt.
  { method: 'GET', path: '/api/purchases', handler: 'http/list-purchases', auth: 'jwt' },
  { method: 'POST', path: '/api/webhooks/stripe', handler: 'webhooks/stripe', auth: 'stripe-signature' },
  // Generation: presigned photo uploads, starting a generation, and the wizard's progress poll.
  { method: 'POST', path: '/api/uploads', handler: 'http/create-uploads', auth: 'jwt' },
  { method: 'POST', path: '/api/generations', handler: 'http/create-generation', auth: 'jwt' },
  { method: 'GET', path: '/api/generations/{id}', handler: 'http/get-generation', auth: 'jwt' },
  // The wizard's draft kept with the account (photos, style, background, step): resumed on another device.
  { method: 'GET', path: '/api/draft', handler: 'http/get-draft', auth: 'jwt' },
  { method: 'PUT', path: '/api/draft', handler: 'http/save-draft', auth: 'jwt' },
  { method: 'DELETE', path: '/api/draft', handler: 'http/delete-draft', auth: 'jwt' },
  // Faces: the wizard's per-photo checks (no face, blur, a different person, …) before a generation is paid for.
  { method: 'POST', path: '/api/photo-checks', handler: 'http/create-photo-checks', auth: 'jwt' },
  // Gallery: the dashboard's headshots, favorites, downloads, deleting one, and deleting all photos.
  { method: 'GET', path: '/api/headshots', handler: 'http/list-headshots', auth: 'jwt' },
  { method: 'PATCH', path: '/api/headshots/{id}', handler: 'http/update-headshot', auth: 'jwt' },
  { method: 'GET', path: '/api/headshots/{id}/download', handler: 'http/download-headshot', auth: 'jwt' },
  { method: 'DELETE', path: '/api/headshots/{id}', handler: 'http/delete-headshot', auth: 'jwt' },
  // "Regenerate (1 credit)": a one-slot generation from a headshot's own style, background and photos.
  {
    method: 'POST',
    path: '/api/headshots/{id}/regenerate',
    handler: 'http/regenerate-headshot',
    auth: 'jwt',
  },
  // Edits of a finished headshot (issue 36): a one-slot generation of the headshot itself, saved as a new version.
  { method: 'POST', path: '/api/headshots/{id}/edits', handler: 'http/edit-headshot', auth: 'jwt' },
  // A headshot's versions (issue 36): listed oldest first, each downloadable (`download?version=`) and deletable.
  {
    method: 'GET',
    path: '/api/headshots/{id}/versions',
    handler: 'http/list-headshot-versions',
    auth: 'jwt',
  },
  {
    method: 'DELETE',
    path: '/api/headshots/{id}/versions/{versionId}',
    handler: 'http/delete-headshot-version',
    auth: 'jwt',
  },
  { method: 'DELETE', path: '/api/me/data', handler: 'http/delete-my-data', auth: 'jwt' },
  // Teams (issue 37, docs/teams.md): a team, its members and roles, its invitation links and e-mail invitations.
  { method: 'POST', path: '/api/teams', handler: 'http/create-team', auth: 'jwt' },
  { method: 'GET', path: '/api/teams', handler: 'http/list-teams', auth: 'jwt' },
  { method: 'GET', path: '/api/teams/{teamId}', handler: 'http/get-team', auth: 'jwt' },
  { method: 'PATCH', path: '/api/teams/{teamId}', handler: 'http/update-team', auth: 'jwt' },
  {
    method: 'PUT',
    path: '/api/teams/{teamId}/members/{sub}',
    handler: 'http/set-team-member-role',
    auth: 'jwt',
  },
  {
    method: 'DELETE',
    path: '/api/teams/{teamId}/members/{sub}',
    handler: 'http/team-membership',
    auth: 'jwt',
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/invite-links',
    handler: 'http/create-invite-link',
    auth: 'jwt',
  },
  { method: 'GET', path: '/api/teams/{teamId}/invite-links', handler: 'http/list-invite-links', auth: 'jwt' },
  {
    method: 'DELETE',
    path: '/api/teams/{teamId}/invite-links/{linkId}',
    handler: 'http/revoke-invite-link',
    auth: 'jwt',
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/invitations',
    handler: 'http/send-invitations',
    auth: 'jwt',
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/invitations/{email}/resend',
    handler: 'http/resend-invitation',
    auth: 'jwt',
  },
  // Seats (docs/teams.md "Money"): Stripe Checkout with a quantity, filling the team's ledger; its receipts.
  {
    method: 'POST',
    path: '/api/teams/{teamId}/checkout/sessions',
    handler: 'http/create-team-checkout-session',
    auth: 'jwt',
  },
  { method: 'GET', path: '/api/teams/{teamId}/purchases', handler: 'http/list-team-purchases', auth: 'jwt' },
  // Sharing and the team gallery (docs/teams.md "Sharing and the team gallery"): a member's own team headshots, by
  // their choice (served with leaving and removal by team-membership); the gallery (served with the team by
  // get-team, read-only) shows only current members' shares.
  {
    method: 'PUT',
    path: '/api/teams/{teamId}/shared/{headshotId}',
    handler: 'http/team-membership',
    auth: 'jwt',
  },
  {
    method: 'DELETE',
    path: '/api/teams/{teamId}/shared/{headshotId}',
    handler: 'http/team-membership',
    auth: 'jwt',
  },
  { method: 'GET', path: '/api/teams/{teamId}/headshots', handler: 'http/get-team', auth: 'jwt' },
  // The join page: public preview (the team's name and the link's state, nothing else), then the signed-in accept.
  { method: 'GET', path: '/api/invites/{token}', handler: 'http/get-invite', auth: 'public' },
  { method: 'POST', path: '/api/invites/{token}/accept', handler: 'http/accept-invite', auth: 'jwt' },
  // Product analytics: public so visits before sign-in count; the handler attaches the sub of a valid token itself.
  { method: 'POST', path: '/api/analytics/events', handler: 'http/analytics-events', auth: 'public' },
] as const satisfies readonly RouteDefinition[];
