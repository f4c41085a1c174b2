import type {
  Admission,
  AdmissionRefusal,
  AdmissionResult,
  HandOver,
} from '../../../../functions/adapters/provider-queue/tickets';
import type { PositionRegistration } from '../../../../functions/adapters/provider-queue/positions';
import {
  accountLabel,
  ledgerAccount,
  userAccount,
  type AccountRef,
  type LedgerAccount,
} from '../../../../functions/domain/ledger-account';
import type { QueueUsage } from '../../../../functions/adapters/provider-queue/usage';
import {
  initialQueueState,
  pausedUntilAfter429,
  tokensAfterPause,
  type QueueLimits,
  type QueueState,
} from '../../../../functions/domain/provider-queue';
import {
  isAhead,
  isFreeKey,
  keyTime,
  leaseId,
  ticketSk,
  type QueueEntry,
  type QueuePriority,
  type QueueTicket,
} from '../../../../functions/domain/provider-queue-order';

/** One lease item: the Task token it belongs to, its times (epoch ms), and when its permit came back. */
export interface FakeLease {
  taskToken: string;
  grantedAt: number;
  leaseUntil: number;
  permitReturned?: number;
  /** When the ticket it was granted to (or last handed over to) was put, epoch ms. */
  ticketEnqueuedAt?: number;
}

/**
 * DynamoDB's answer to a TransactWriteItems with two actions on one item: the whole request is refused with a
 * `ValidationException` ("no two actions can target the same item",
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html; the message DynamoDB
 * and DynamoDB Local send, test/integration/provider-dispatch.test.ts), which the adapter hands back as `refused`.
 */
export const MULTIPLE_OPERATIONS_ON_ONE_ITEM = {
  error: 'ValidationException',
  message: 'Transaction request cannot include multiple operations on one item',
} as const;

/**
 * The provider queue in memory (adapters/provider-queue/*): the state item with its version condition and its
 * `ADD inFlight`, tickets in sort-key order with their token conditions, leases put only if absent, place entries,
 * the generations' `queue` and `admittedAt`, the Step Functions Tasks that wait on their tokens, and the wake-up
 * messages sent. Its clock is `now` (epoch ms); a dispatch's options move it through {@link clock} and {@link sleep}.
 */
export class FakeProviderQueue {
  now = 1_800_000_000_000;
  limits: QueueLimits = { imagesPerMinute: 120, maxConcurrency: 3, leaseMs: 600_000, maxPauseMs: 60_000 };
  deadline = 30 * 60_000;
  headStart = 300_000;
  /** PROVIDER_FREE_SHARE. */
  share = 0.25;
  /** The state item; `undefined` until first written (its version is then 0). */
  stored: QueueState | undefined;
  readonly tickets = new Map<string, QueueTicket>();
  readonly leases = new Map<string, FakeLease>();
  /** Place entries by generation id, with their order key. */
  readonly places = new Map<string, number>();
  /** The generation items' `queue`, and the generations admitted (`admittedAt`). */
  readonly queues = new Map<string, { position: number; etaSeconds: number; orderKey: number }>();
  readonly admitted = new Set<string>();
  /** Task tokens Step Functions has waiting. */
  readonly waiting = new Set<string>();
  readonly resumed: { taskToken: string; leaseId: string }[] = [];
  readonly failedTasks: { taskToken: string; generationId: string; error?: string }[] = [];
  /** Tickets set aside (`<base>#ASIDE`), with the table's refusal. */
  readonly aside: { ticket: QueueTicket; error: string; message: string }[] = [];
  /**
   * Lease ids whose put the table refuses on its own (a cancellation code `ValidationError` on that item, as for an
   * item over 400 KB): every admission that holds one is cancelled, naming it.
   */
  readonly refusedLeases = new Set<string>();
  readonly wakeUps: { reason: string; delaySeconds: number }[] = [];
  readonly dispatchMs: number[] = [];
  readonly priorities = new Map<string, QueuePriority>();

  /** The dispatch options that use this clock: a sleep moves it, no test waits for real time. */
  readonly clock = () => this.now;
  readonly sleep = async (ms: number) => {
    this.now += ms;
  };

  /** The state as the table holds it (a fresh one, full bucket, before the first write). */
  state(): QueueState {
    return { ...(this.stored ?? initialQueueState(this.limits, this.now)) };
  }

  /** Enqueues a slot's ticket directly, as EnterLine does, with its Task waiting on its token. */
  seed(
    ticket: Omit<QueueTicket, 'orderKey' | 'deadline' | 'enqueuedAt'> &
      Partial<Pick<QueueTicket, 'orderKey' | 'deadline' | 'enqueuedAt'>>,
  ): QueueTicket {
    const full: QueueTicket = {
      orderKey: this.now,
      deadline: this.now + this.deadline,
      enqueuedAt: this.now,
      ...ticket,
    };
    this.tickets.set(ticketSk(full), full);
    this.waiting.add(full.taskToken);
    return full;
  }

  /** The tickets in queue order. */
  queued(): QueueTicket[] {
    return [...this.tickets.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, t]) => t);
  }

  private moveInFlight(by: number, tookMs?: number): void {
    const state = this.state();
    state.inFlight += by;
    if (tookMs !== undefined) {
      state.callMsSum += tookMs;
      state.calls += 1;
    }
    this.stored = state;
  }

  readonly queueLimits = () => this.limits;
  readonly deadlineMs = () => this.deadline;
  readonly headStartMs = () => this.headStart;
  readonly readState = async (_consistent?: boolean) => this.state();
  readonly freeShare = () => this.share;
  readonly readHead = async (limit: number, lane?: 'paid' | 'free') =>
    this.queued()
      .filter((t) => lane === undefined || isFreeKey(t.orderKey) === (lane === 'free'))
      .slice(0, limit);

  readonly admitTickets = async (admission: Admission): Promise<AdmissionResult> => {
    const { state, next, tickets, grantedAt, leaseUntil } = admission;
    const refused = this.refusal(tickets);
    if (refused) return { written: false, held: [], refused };
    const stateOk = (this.stored?.version ?? 0) === state.version;
    const ticketsOk = tickets.every((t) => this.tickets.get(ticketSk(t))?.taskToken === t.taskToken);
    const held = tickets.filter((t) => this.leases.has(leaseId(t)));
    if (!stateOk || !ticketsOk || held.length > 0) return { written: false, held };
    const inFlight = this.state().inFlight + (next.inFlight - state.inFlight);
    this.stored = { ...next, inFlight };
    for (const t of tickets) {
      this.tickets.delete(ticketSk(t));
      this.leases.set(leaseId(t), {
        taskToken: t.taskToken,
        grantedAt,
        leaseUntil,
        ticketEnqueuedAt: t.enqueuedAt,
      });
    }
    return { written: true };
  };

  /** What the table refuses in an admission of `tickets`, before any condition is evaluated. */
  private refusal(tickets: readonly QueueTicket[]): AdmissionRefusal | undefined {
    const leases = tickets.map((t) => leaseId(t));
    const keys = tickets.map((t) => ticketSk(t));
    if (new Set(leases).size < leases.length || new Set(keys).size < keys.length) {
      return { tickets: [...tickets], ...MULTIPLE_OPERATIONS_ON_ONE_ITEM };
    }
    const named = tickets.filter((t) => this.refusedLeases.has(leaseId(t)));
    if (named.length === 0) return undefined;
    return {
      tickets: named,
      error: 'ValidationError',
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
    };
  }

  readonly handOverLease = async (ticket: QueueTicket): Promise<HandOver> => {
    const lease = this.leases.get(leaseId(ticket));
    if (this.tickets.get(ticketSk(ticket))?.taskToken !== ticket.taskToken || !lease) return 'changed';
    if ((lease.ticketEnqueuedAt ?? 0) >= ticket.enqueuedAt) {
      this.tickets.delete(ticketSk(ticket));
      return 'superseded';
    }
    this.tickets.delete(ticketSk(ticket));
    lease.taskToken = ticket.taskToken;
    lease.ticketEnqueuedAt = ticket.enqueuedAt;
    return 'handedOver';
  };

  readonly setTicketAside = async (ticket: QueueTicket, refusal: { error: string; message: string }) => {
    if (this.tickets.get(ticketSk(ticket))?.taskToken !== ticket.taskToken) return false;
    this.tickets.delete(ticketSk(ticket));
    this.aside.push({ ticket, ...refusal });
    return true;
  };

  readonly failRefusedAdmission = async (taskToken: string, generationId: string) => {
    if (this.waiting.delete(taskToken))
      this.failedTasks.push({ taskToken, generationId, error: 'AdmissionRefused' });
  };

  readonly removeTicket = async (ticket: QueueTicket) => {
    if (this.tickets.get(ticketSk(ticket))?.taskToken !== ticket.taskToken) return false;
    this.tickets.delete(ticketSk(ticket));
    return true;
  };

  readonly markAdmitted = async (ticket: {
    userId: string;
    generationId: string;
    orderKey: number;
    now: number;
  }) => {
    if (this.admitted.has(ticket.generationId)) return;
    this.admitted.add(ticket.generationId);
    this.queues.set(ticket.generationId, { position: 0, etaSeconds: 0, orderKey: ticket.orderKey });
    await this.leavePosition(ticket.orderKey, ticket.generationId);
  };

  readonly leavePosition = async (_orderKey: number, generationId: string) => {
    this.places.delete(generationId);
  };

  readonly positionOf = async (orderKey: number, generationId: string) =>
    1 +
    [...this.places].filter(
      ([id, key]) =>
        id !== generationId && isAhead({ orderKey: key, generationId: id }, { orderKey, generationId }),
    ).length;

  readonly registerPosition = async (registration: PositionRegistration) => {
    const { generationId, orderKey, position, etaSeconds } = registration;
    if (this.places.has(generationId) || this.admitted.has(generationId)) return false;
    this.places.set(generationId, orderKey);
    this.queues.set(generationId, { position, etaSeconds, orderKey });
    return true;
  };

  readonly dropStalePositions = async (oldest: number) => {
    const stale = [...this.places].filter(([, key]) => keyTime(key) < oldest);
    for (const [id] of stale) this.places.delete(id);
    return stale.length;
  };

  /** A customer's standing by `sub`, a team's by `team:<teamId>` (domain/ledger-account.ts `accountLabel`). */
  readonly currentPriority = async (payer: AccountRef) => {
    const account = ledgerAccount(payer);
    return this.priorities.get(account.kind === 'user' ? account.sub : accountLabel(account)) ?? 'standard';
  };

  /** Whose purchases decide a generation's standing: its payer, from {@link payers} (default: its customer). */
  readonly payers = new Map<string, LedgerAccount>();
  readonly payerOf = async (sub: string, generationId: string): Promise<LedgerAccount> =>
    this.payers.get(generationId) ?? userAccount(sub);

  readonly putTicket = async (entry: QueueEntry, orderKey: number, deadline: number, now: number) => {
    const { taskToken, generationId, userId, slot, call } = entry;
    this.tickets.set(ticketSk({ orderKey, generationId, slot }), {
      orderKey,
      taskToken,
      generationId,
      userId,
      slot,
      call,
      deadline,
      enqueuedAt: now,
    });
  };

  readonly resumeAdmitted = async (taskToken: string, id: string) => {
    if (!this.waiting.delete(taskToken)) return false;
    this.resumed.push({ taskToken, leaseId: id });
    return true;
  };

  readonly failPastDeadline = async (taskToken: string, generationId: string) => {
    if (this.waiting.delete(taskToken)) this.failedTasks.push({ taskToken, generationId });
  };

  readonly releaseDeadLease = async (id: string, taskToken: string) => {
    if (this.leases.get(id)?.taskToken !== taskToken) return false;
    this.leases.delete(id);
    this.moveInFlight(-1);
    return true;
  };

  readonly returnPermit = async (id: string, now = this.now) => {
    const lease = this.leases.get(id);
    if (!lease || lease.permitReturned !== undefined) return false;
    lease.permitReturned = now;
    this.moveInFlight(-1, now - lease.grantedAt);
    return true;
  };

  readonly releaseLease = async (id: string, throttleMs?: number, now = this.now) => {
    const lease = this.leases.get(id);
    let released = false;
    if (lease) {
      this.leases.delete(id);
      if (lease.permitReturned === undefined) {
        this.moveInFlight(-1, throttleMs === undefined ? now - lease.grantedAt : undefined);
        released = true;
      }
    }
    if (throttleMs !== undefined) {
      const until = pausedUntilAfter429({ pausedUntil: 0 }, this.limits, throttleMs, now);
      const state = this.state();
      if (state.pausedUntil < until) {
        const tokens = tokensAfterPause(this.limits);
        this.stored = { ...state, pausedUntil: until, tokens, refilledAt: until, version: state.version + 1 };
      }
    }
    return released;
  };

  readonly reclaimExpired = async (now = this.now) => {
    let reclaimed = 0;
    for (const [id, lease] of [...this.leases]) {
      if (lease.leaseUntil >= now) continue;
      this.leases.delete(id);
      if (lease.permitReturned !== undefined) continue;
      this.moveInFlight(-1);
      reclaimed++;
    }
    return reclaimed;
  };

  readonly wakeDispatcher = async (reason: string, delaySeconds = 0) => {
    this.wakeUps.push({ reason, delaySeconds });
  };

  readonly countDispatch = (ms: number) => {
    this.dispatchMs.push(ms);
  };

  readonly queueUsage = (): QueueUsage => ({
    rcu: {},
    wcu: {},
    wakeUps: this.wakeUps.length,
    callbacks: this.resumed.length + this.failedTasks.length,
    admitted: this.leases.size,
    dispatches: this.dispatchMs.length,
    dispatchMs: this.dispatchMs.reduce((a, b) => a + b, 0),
    longestDispatchMs: Math.max(0, ...this.dispatchMs),
    lostRaces: 0,
  });
}
