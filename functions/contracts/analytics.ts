import * as z from 'zod/mini';
import {
  CLIENT_EVENT_NAMES,
  MAX_EVENTS_PER_REQUEST,
  MAX_PROPS,
  MAX_STRING_LENGTH,
} from '../domain/analytics';

/** `POST /api/analytics/events`: product analytics from the browser (docs/architecture.md, analytics). */

const cut = (value: string) => value.slice(0, MAX_STRING_LENGTH);
const idString = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, _ or -'));

/** One event as the client sends it; `ts` is the client's clock in ms since the epoch; strings cut at 256. */
export const clientEventSchema = z.object({
  name: z.enum(CLIENT_EVENT_NAMES),
  ts: z.number().check(z.int(), z.positive()),
  sessionId: idString,
  anonymousId: idString,
  path: z.optional(z.pipe(z.string().check(z.maxLength(2048)), z.transform(cut))),
  props: z.optional(
    z
      .record(
        z.string().check(z.minLength(1), z.maxLength(64)),
        z.union([z.pipe(z.string(), z.transform(cut)), z.number(), z.boolean(), z.null()]),
      )
      .check(z.refine((p) => Object.keys(p).length <= MAX_PROPS, `at most ${MAX_PROPS} properties`)),
  ),
});
export type ClientEvent = z.output<typeof clientEventSchema>;

/** `POST /api/analytics/events` body: `{ events }`, 1-25 events. */
export const analyticsBatchSchema = z.object({
  events: z.array(clientEventSchema).check(z.minLength(1), z.maxLength(MAX_EVENTS_PER_REQUEST)),
});
export type AnalyticsBatch = z.input<typeof analyticsBatchSchema>;

/** `POST /api/analytics/events` 202: how many events were recorded. */
export const analyticsAcceptedSchema = z.object({ accepted: z.number().check(z.int()) });
