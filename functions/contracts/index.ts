import * as z from 'zod/mini';
import type { routes } from '../http/routes';
import {
  checkoutResultSchema,
  checkoutSessionSchema,
  createCheckoutSessionBody,
  deletedDataSchema,
  healthSchema,
  meSchema,
  packsSchema,
  preferencesSchema,
  stripeWebhookResultSchema,
  updateMeBody,
} from './account';
import { analyticsAcceptedSchema, analyticsBatchSchema } from './analytics';
import { wizardDraftAnswerSchema, wizardDraftSchema } from './draft';
import { editHeadshotBody, headshotVersionsSchema } from './edits';
import {
  createGenerationBody,
  createUploadsBody,
  generationSchema,
  generationStartedSchema,
  photoChecksBody,
  photoChecksSchema,
  uploadsSchema,
} from './generation';
import {
  galleryPageSchema,
  galleryQuerySchema,
  headshotDownloadSchema,
  headshotSchema,
  updateHeadshotBody,
} from './headshot';
import { purchasesPageSchema, purchasesQuerySchema } from './purchase';
import { teamRouteContracts } from './teams';

/**
 * THE contracts of the HTTP API (docs/architecture.md §3): zod schemas of every route's request and response, and
 * the types inferred from them. The handlers parse requests with them and type their answers by them, the SPA
 * validates every response with them, and the tests parse what the handlers answer with them. Pure zod and
 * constants: safe to import from the browser bundle (no Node module, no AWS SDK).
 */

export * from './account';
export * from './analytics';
export * from './draft';
export * from './edits';
export * from './errors';
export * from './generation';
export * from './headshot';
export * from './purchase';
export * from './teams';

/** A route as `"<METHOD> <path>"`, exactly as in the route table (`functions/http/routes.ts`). */
export type RouteKey = KeyOf<(typeof routes)[number]>;
type KeyOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

/** One route's contract: its success status, and the schemas of its body, query and answer. */
export interface RouteContract {
  /** The status of a successful answer. */
  status: 200 | 202 | 204;
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  /** The success answer's JSON body; `z.undefined()` for a 204 without body. */
  response: z.ZodMiniType;
}

/** The team routes' contracts of the routes the route table has (contracts/teams.ts `teamRouteContracts`). */
type RoutedTeamContracts = Pick<
  typeof teamRouteContracts,
  Extract<keyof typeof teamRouteContracts, RouteKey>
>;

/** Every route's contract, keyed like the route table; a route without one fails the type check. */
export const apiContracts = {
  ...(teamRouteContracts as RoutedTeamContracts),
  'GET /api/health': { status: 200, response: healthSchema },
  'GET /api/packs': { status: 200, response: packsSchema },
  'GET /api/me': { status: 200, response: meSchema },
  'PATCH /api/me': { status: 200, body: updateMeBody, response: preferencesSchema },
  // 409 GENERATION_IN_PROGRESS while a generation runs, 409 TEAM_OWNER_CANNOT_DELETE_ACCOUNT while the caller owns
  // a team others are in (nothing deleted); repeated calls answer 204 too.
  'DELETE /api/me': { status: 204, response: z.undefined() },
  'POST /api/checkout/sessions': {
    status: 200,
    body: createCheckoutSessionBody,
    response: checkoutSessionSchema,
  },
  'GET /api/checkout/sessions/{id}': { status: 200, response: checkoutResultSchema },
  'POST /api/webhooks/stripe': { status: 200, response: stripeWebhookResultSchema },
  'POST /api/uploads': { status: 200, body: createUploadsBody, response: uploadsSchema },
  'POST /api/generations': { status: 202, body: createGenerationBody, response: generationStartedSchema },
  'GET /api/generations/{id}': { status: 200, response: generationSchema },
  'GET /api/draft': { status: 200, response: wizardDraftAnswerSchema },
  'PUT /api/draft': { status: 204, body: wizardDraftSchema, response: z.undefined() },
  'DELETE /api/draft': { status: 204, response: z.undefined() },
  'POST /api/photo-checks': { status: 200, body: photoChecksBody, response: photoChecksSchema },
  'GET /api/headshots': { status: 200, query: galleryQuerySchema, response: galleryPageSchema },
  'PATCH /api/headshots/{id}': { status: 200, body: updateHeadshotBody, response: headshotSchema },
  'GET /api/headshots/{id}/download': { status: 200, response: headshotDownloadSchema },
  'DELETE /api/headshots/{id}': { status: 204, response: z.undefined() },
  'POST /api/headshots/{id}/regenerate': { status: 202, response: generationStartedSchema },
  'POST /api/headshots/{id}/edits': {
    status: 202,
    body: editHeadshotBody,
    response: generationStartedSchema,
  },
  'GET /api/headshots/{id}/versions': { status: 200, response: headshotVersionsSchema },
  'DELETE /api/headshots/{id}/versions/{versionId}': { status: 204, response: z.undefined() },
  'DELETE /api/me/data': { status: 200, response: deletedDataSchema },
  'GET /api/purchases': { status: 200, query: purchasesQuerySchema, response: purchasesPageSchema },
  'POST /api/analytics/events': {
    status: 202,
    body: analyticsBatchSchema,
    response: analyticsAcceptedSchema,
  },
} as const satisfies Record<RouteKey, RouteContract>;

/** The success answer of a route, as the client sees it after parsing. */
export type ResponseOf<K extends RouteKey> = z.output<(typeof apiContracts)[K]['response']>;
