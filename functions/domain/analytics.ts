import type { ClientEvent } from '../contracts/analytics';

export type { ClientEvent };

/**
 * Product analytics (docs/product-spec.md, "The calls it makes" and "Business constants and limits"; shape in
 * docs/architecture.md): the events the SPA and the server record, the limits on what a client may send, and the
 * one record shape every sink stores (a JSON line locally, a Firehose record → S3 → Glue table in the cloud).
 */

/** Events the browser may send to `POST /api/analytics/events`. */
export const CLIENT_EVENT_NAMES = [
  'page_view',
  'sign_up',
  'checkout_started',
  'upload_completed',
  'photo_check',
  'generation_started',
  // The wizard's outfit choice (issue 36): props `{ outfit }`; `generation_started` carries the outfit too.
  'outfit_chosen',
  'generation_finished',
  'regenerate_started',
  'download',
  'favorite',
] as const;

/** Events only the server emits (a client cannot claim a purchase). */
export const SERVER_EVENT_NAMES = ['purchase_completed'] as const;

export type ClientEventName = (typeof CLIENT_EVENT_NAMES)[number];
export type AnalyticsEventName = ClientEventName | (typeof SERVER_EVENT_NAMES)[number];

/** String values are cut at 256 characters, on the client and again here (the spec's analytics limit). */
export const MAX_STRING_LENGTH = 256;
/** Events per request: the client sends batches of 10; a page-hide beacon may carry a little more. */
export const MAX_EVENTS_PER_REQUEST = 25;
/** Properties per event. */
export const MAX_PROPS = 20;
/** Request body limit of the route, in bytes (25 events × 20 props × 256 chars stays well under it). */
export const MAX_BODY_BYTES = 64 * 1024;

const cut = (value: string) => value.slice(0, MAX_STRING_LENGTH);

/**
 * What every sink stores, one per event. Snake case because it is also the Glue table's column list
 * (`infrastructure/constructs/analytics.ts`). `props` values are strings so the table's `map<string,string>` reads
 * every record. No IP address or e-mail is stored.
 */
export interface AnalyticsRecord {
  event_name: AnalyticsEventName;
  /** When it happened, ISO 8601 (the client's clock for client events). */
  event_time: string;
  /** When the server accepted it, ISO 8601; its date is the partition (`dt`). */
  received_at: string;
  source: 'client' | 'server';
  session_id: string | null;
  anonymous_id: string | null;
  /** The Cognito `sub`, attached by the server from a verified token, never taken from the body. */
  user_sub: string | null;
  path: string | null;
  props: Record<string, string>;
}

/** The client's clock is believed within a day of the server's; otherwise the server's time is used. */
const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

function stringProps(props: Record<string, string | number | boolean | null> | undefined) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(props ?? {})) if (v !== null) out[k] = cut(String(v));
  return out;
}

/** The stored record of a validated client event, `sub` from the verified token (or `null`). */
export function toClientRecord(event: ClientEvent, sub: string | null, now: Date): AnalyticsRecord {
  const believable = Math.abs(event.ts - now.getTime()) <= MAX_CLOCK_SKEW_MS;
  return {
    event_name: event.name,
    event_time: new Date(believable ? event.ts : now.getTime()).toISOString(),
    received_at: now.toISOString(),
    source: 'client',
    session_id: event.sessionId,
    anonymous_id: event.anonymousId,
    user_sub: sub,
    path: event.path ?? null,
    props: stringProps(event.props),
  };
}

/** The stored record of an event the server itself emits (e.g. `purchase_completed` at fulfilment). */
export function toServerRecord(
  name: AnalyticsEventName,
  sub: string,
  props: Record<string, string | number | boolean>,
  now: Date,
): AnalyticsRecord {
  return {
    event_name: name,
    event_time: now.toISOString(),
    received_at: now.toISOString(),
    source: 'server',
    session_id: null,
    anonymous_id: null,
    user_sub: sub,
    path: null,
    props: stringProps(props),
  };
}

/** The partition of a record: the UTC date it was received, `YYYY-MM-DD`. */
export function partitionDate(record: AnalyticsRecord): string {
  return record.received_at.slice(0, 10);
}
