import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChargeState } from './charges';
import { DAY_SECONDS, type NewSession } from './session-object';
import { StripeStyleError } from './wire';

/** A Checkout Session as the local provider keeps it: Stripe's objects plus what the hosted page remembers. */
export interface StoredSession extends NewSession {
  /** Unix seconds of the last simulated decline. */
  declinedAt?: number;
  /** The charge of a paid session (none when a promotion code made it free). */
  charge?: ChargeState;
  /** The last promotion code the page refused, shown once (not persisted meaning: a page message). */
  promotionError?: string;
}

interface StoreFile {
  version: 1;
  sessions: Record<string, StoredSession>;
  /** Idempotency-Key → the request it was first used with (Stripe keeps keys for 24 h). */
  idempotency: Record<string, { hash: string; sessionId: string; at: number }>;
}

const empty = (): StoreFile => ({ version: 1, sessions: {}, idempotency: {} });

function load(path: string | undefined): StoreFile {
  if (!path) return empty();
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as StoreFile;
    if (parsed.version === 1 && parsed.sessions && parsed.idempotency) return parsed;
  } catch {
    // No file yet (first run) or an unreadable one: start empty.
  }
  return empty();
}

/**
 * The local Checkout provider's sessions and idempotency keys: in memory, and in `<dataDir>/sessions.json` when a
 * data directory is given (written atomically after every change, so `npm start` keeps sessions between runs).
 */
export class SessionStore {
  private readonly file: string | undefined;
  private readonly data: StoreFile;

  constructor(private readonly dataDir: string | undefined) {
    this.file = dataDir ? join(dataDir, 'sessions.json') : undefined;
    this.data = load(this.file);
  }

  /** Every stored session (for lookups by payment intent). */
  all(): StoredSession[] {
    return Object.values(this.data.sessions);
  }

  /** Stores a new session (call `save` after). */
  add(entry: StoredSession): StoredSession {
    this.data.sessions[entry.session.id] = entry;
    return entry;
  }

  /** The session an Idempotency-Key was first used for, with the hash of that request's body. */
  idempotent(key: string): { hash: string; sessionId: string } | undefined {
    return Object.hasOwn(this.data.idempotency, key) ? this.data.idempotency[key] : undefined;
  }

  /** Remembers an Idempotency-Key for 24 h (Stripe's retention). */
  rememberKey(key: string, hash: string, sessionId: string): void {
    this.data.idempotency[key] = { hash, sessionId, at: Math.floor(Date.now() / 1000) };
  }

  /** Writes the store to disk (no-op in memory), dropping idempotency keys older than 24 h. */
  save(): void {
    if (!this.file || !this.dataDir) return;
    const now = Math.floor(Date.now() / 1000);
    for (const [key, entry] of Object.entries(this.data.idempotency)) {
      if (now - entry.at > DAY_SECONDS) delete this.data.idempotency[key];
    }
    mkdirSync(this.dataDir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
  }

  /** The stored session, with an open one past `expires_at` turned `expired` (as Stripe does). */
  get(id: string): StoredSession | undefined {
    const entry = Object.hasOwn(this.data.sessions, id) ? this.data.sessions[id] : undefined;
    if (entry && entry.session.status === 'open' && entry.session.expires_at <= Date.now() / 1000) {
      entry.session.status = 'expired';
      entry.session.url = null;
      this.save();
    }
    return entry;
  }

  /**
   * The stored session.
   *
   * @throws {StripeStyleError} 404 `resource_missing`, as Stripe answers for an unknown id.
   */
  mustGet(id: string): StoredSession {
    const entry = this.get(id);
    if (!entry) {
      throw new StripeStyleError(
        404,
        'invalid_request_error',
        `No such checkout.session: '${id}'`,
        'session',
        'resource_missing',
      );
    }
    return entry;
  }
}

/** A session's line items as Stripe's list object (`GET /v1/checkout/sessions/:id/line_items`). */
export function lineItemList(entry: StoredSession) {
  return {
    object: 'list',
    data: entry.lineItems,
    has_more: false,
    url: `/v1/checkout/sessions/${entry.session.id}/line_items`,
  };
}

/** A copy of the session object as the API returns it; `expandLineItems` adds `line_items` (`expand[]`). */
export function sessionView(entry: StoredSession, expandLineItems: boolean): Record<string, unknown> {
  const copy = structuredClone(entry.session) as Record<string, unknown>;
  if (expandLineItems) copy.line_items = structuredClone(lineItemList(entry));
  return copy;
}

/** The session's `success_url` with `{CHECKOUT_SESSION_ID}` filled in, as Stripe redirects to it. */
export function successUrl(entry: StoredSession): string {
  return entry.session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', entry.session.id);
}
