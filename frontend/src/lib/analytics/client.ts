/**
 * The product analytics client (docs/product-spec.md, "Business constants and limits": batches of 10, a 3-second
 * flush delay, strings cut at 256 characters, a session that ends after 30 minutes idle, nothing at all under Do
 * Not Track; docs/architecture.md, "Analytics", adds Global Privacy Control and the page-hide beacon).
 *
 * Pure: every browser facility comes in through {@link AnalyticsDeps}, so the rules are unit-tested with fakes.
 */

/** Events the SPA sends (the server adds `purchase_completed` itself, at fulfilment). */
export type AnalyticsEventName =
  | 'page_view'
  | 'sign_up'
  | 'checkout_started'
  | 'upload_completed'
  | 'photo_check'
  | 'generation_started'
  | 'outfit_chosen'
  | 'generation_finished'
  | 'regenerate_started'
  | 'download'
  | 'favorite';

/** Property values an event may carry. */
export type AnalyticsProps = Record<string, string | number | boolean | null | undefined>;

/** One queued event, as `POST /api/analytics/events` takes it. `ts` is ms since the epoch. */
export interface QueuedEvent {
  name: AnalyticsEventName;
  ts: number;
  sessionId: string;
  anonymousId: string;
  path?: string;
  props?: Record<string, string | number | boolean | null>;
}

/** Events per request. */
export const BATCH_SIZE = 10;
/** Delay from the first queued event to the flush, in ms. */
export const FLUSH_DELAY_MS = 3_000;
/** String values are cut to this many characters. */
export const MAX_STRING_LENGTH = 256;
/** A session ends after this long without an event, in ms. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

const ANON_KEY = 'hs.analytics.anonymousId';
const SESSION_KEY = 'hs.analytics.session';

/** What the client needs from the browser. */
export interface AnalyticsDeps {
  /** Sends a batch while the page lives (the API client: it attaches the bearer token when signed in). */
  send(events: QueuedEvent[]): Promise<void>;
  /** Sends a batch as the page goes away (`navigator.sendBeacon`); `false` when the browser refused it. */
  beacon(events: QueuedEvent[]): boolean;
  /** `localStorage`-like storage for the anonymous id and the session. */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  /** True when the person asked not to be tracked (Do Not Track or Global Privacy Control). */
  optedOut(): boolean;
  now(): number;
  /** A random id of 8-64 letters, digits, `_` or `-`. */
  randomId(): string;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The analytics client. */
export interface AnalyticsClient {
  /** Queues an event (nothing when opted out); flushes at 10 queued, or 3 s after the first. Never throws. */
  track(name: AnalyticsEventName, props?: AnalyticsProps, path?: string): void;
  /** Sends what is queued now. Never rejects: analytics must not break the page. */
  flush(): Promise<void>;
  /** Hands what is queued to the beacon (page hide). */
  flushOnHide(): void;
  /** Events waiting to be sent (tests, debugging). */
  pending(): readonly QueuedEvent[];
}

/** Cuts every string to {@link MAX_STRING_LENGTH} characters and drops `undefined` values. */
export function cleanProps(props: AnalyticsProps | undefined): QueuedEvent['props'] {
  if (!props) return undefined;
  const out: NonNullable<QueuedEvent['props']> = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    out[key.slice(0, 64)] = typeof value === 'string' ? value.slice(0, MAX_STRING_LENGTH) : value;
  }
  return out;
}

/** Whether the browser says Do Not Track (`navigator.doNotTrack` or the older `window.doNotTrack`) or GPC. */
export function privacySignalsOn(nav: Navigator | undefined, win?: unknown): boolean {
  const n = nav as (Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string }) | undefined;
  const dnt = n?.doNotTrack ?? (win as { doNotTrack?: string } | undefined)?.doNotTrack ?? n?.msDoNotTrack;
  return dnt === '1' || dnt === 'yes' || n?.globalPrivacyControl === true;
}

/** Creates the client. */
export function createAnalyticsClient(deps: AnalyticsDeps): AnalyticsClient {
  let queue: QueuedEvent[] = [];
  let timer: unknown;

  const anonymousId = () => {
    let id = deps.storage.getItem(ANON_KEY);
    if (!id) {
      id = deps.randomId();
      deps.storage.setItem(ANON_KEY, id);
    }
    return id;
  };

  /** The current session id: a new one after 30 minutes without an event; every event extends it. */
  const sessionId = (now: number) => {
    let session: { id: string; lastSeen: number } | undefined;
    try {
      session = JSON.parse(deps.storage.getItem(SESSION_KEY) ?? 'null') ?? undefined;
    } catch {
      session = undefined;
    }
    const id = session && now - session.lastSeen < SESSION_IDLE_MS ? session.id : deps.randomId();
    deps.storage.setItem(SESSION_KEY, JSON.stringify({ id, lastSeen: now }));
    return id;
  };

  const take = () => {
    if (timer !== undefined) deps.clearTimer(timer);
    timer = undefined;
    const batch = queue.slice(0, BATCH_SIZE);
    queue = queue.slice(BATCH_SIZE);
    return batch;
  };

  const sendOne = async (batch: QueuedEvent[]): Promise<void> => {
    try {
      await deps.send(batch);
    } catch {
      // Dropped: a failed analytics call is not worth retrying at the person's expense.
    }
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0) await sendOne(take());
  };

  const schedule = () => {
    if (queue.length > 0 && timer === undefined) timer = deps.setTimer(() => void flush(), FLUSH_DELAY_MS);
  };

  return {
    track(name, props, path) {
      try {
        // Opted out: nothing is stored or queued, not even an id.
        if (deps.optedOut()) return;
        const now = deps.now();
        queue.push({
          name,
          ts: now,
          sessionId: sessionId(now),
          anonymousId: anonymousId(),
          ...(path === undefined ? {} : { path: path.slice(0, MAX_STRING_LENGTH) }),
          ...(props ? { props: cleanProps(props) } : {}),
        });
        // A full batch goes now; whatever follows waits for its own 3 seconds.
        if (queue.length >= BATCH_SIZE) void sendOne(take());
        schedule();
      } catch {
        // Storage full or blocked: analytics never breaks the page.
      }
    },
    flush,
    flushOnHide() {
      if (deps.optedOut()) {
        queue = [];
        return;
      }
      while (queue.length > 0) {
        const batch = take();
        if (!deps.beacon(batch)) void deps.send(batch).catch(() => undefined);
      }
    },
    pending: () => queue,
  };
}
