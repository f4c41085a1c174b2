import type { GenerationRecord, StepFields } from '../../../../functions/adapters/generations';
import type { HeadshotRecord, NewHeadshot } from '../../../../functions/adapters/headshots/records';
import type { CompensationPorts } from '../../../../functions/use-cases/compensate-generation';
import {
  GenerationClosedError,
  GenerationNotFoundError,
  type GenerationError,
} from '../../../../functions/domain/generation-errors';
import { isTerminal, PROGRESS, type GenerationStage } from '../../../../functions/domain/generation-status';
import type { MemberRecord } from '../../../../functions/adapters/teams/records';
import { fakeSeatUseItem } from './team-seat-uses';

/** A generation as the fake keeps it: the record, and the attributes only the table holds. */
export type FakeGeneration = GenerationRecord & { checkedAt?: string; notifiedAt?: string };

const NOW = '2026-01-01T00:00:00.000Z';
/** A ULID of 2026-01-01 (its time prefix is what the id's time is read from). */
export const GENERATION_ID = '01KDWYDY00AAAAAAAAAAAAAAAA';

/**
 * In-memory generation items (adapters/generations.ts) with the adapter's rules: a step is recorded only while the
 * generation is open (`GenerationClosedError`), closing is idempotent (the first `closedAt` stays), a terminal status
 * is never overwritten, a missing generation is `GenerationNotFoundError`, and the ready mail is claimed once. Also
 * the headshot items the workflow saves on it (adapters/headshots/records.ts `saveHeadshot`: only while open, the
 * slot's first headshot stays). Pass its methods as ports; read {@link records} in assertions.
 */
export class FakeGenerations {
  readonly records = new Map<string, FakeGeneration>();
  readonly headshots = new Map<string, HeadshotRecord>();
  private sequence = 0;

  /** Stores a generation of `userId` (default `user-1`) with the usual fields of a queued 6-slot one. */
  seed(fields: Partial<FakeGeneration> = {}): FakeGeneration {
    const record: FakeGeneration = {
      id: GENERATION_ID,
      userId: 'user-1',
      status: 'queued',
      stage: 'queued',
      progress: PROGRESS.queued,
      style: 'professional',
      background: 'studio',
      referenceKeys: ['uploads/user-1/batch/0'],
      creditsReserved: 6,
      creditsRefunded: 0,
      imagesSaved: 0,
      slots: {},
      createdAt: NOW,
      updatedAt: NOW,
      ...fields,
    };
    this.records.set(this.key(record.userId, record.id), record);
    return structuredClone(record);
  }

  /** Stores a new generation item (adapters/generations.ts `newGenerationItem`, with its table key) as a record. */
  insertItem(item: Record<string, unknown>): void {
    const { PK: _pk, SK: _sk, type: _type, ...record } = item;
    const generation = record as unknown as FakeGeneration;
    this.records.set(this.key(generation.userId, generation.id), structuredClone(generation));
  }

  /** The stored generation (not a copy): for assertions. */
  stored(sub: string, id: string): FakeGeneration | undefined {
    return this.records.get(this.key(sub, id));
  }

  private key(sub: string, id: string) {
    return `${sub}|${id}`;
  }

  private existing(sub: string, id: string): FakeGeneration {
    const record = this.records.get(this.key(sub, id));
    if (!record) throw new GenerationNotFoundError(`Generation ${id} not found`);
    return record;
  }

  private touch(record: FakeGeneration, fields: Partial<FakeGeneration>) {
    Object.assign(record, fields, { updatedAt: new Date().toISOString() });
  }

  readonly getGeneration = async (sub: string, id: string): Promise<GenerationRecord | undefined> => {
    const record = this.records.get(this.key(sub, id));
    return record ? structuredClone(record) : undefined;
  };

  readonly requireGeneration = async (sub: string, id: string): Promise<GenerationRecord> =>
    structuredClone(this.existing(sub, id));

  readonly recordStep = async (
    sub: string,
    id: string,
    step: { stage: GenerationStage; progress: number } & StepFields,
  ): Promise<void> => {
    const record = this.existing(sub, id);
    if (record.closedAt) throw new GenerationClosedError(`Generation ${id} is closed (${record.status})`);
    this.touch(record, Object.fromEntries(Object.entries(step).filter(([, v]) => v !== undefined)));
  };

  readonly saveReferenceDescriptor = async (
    sub: string,
    id: string,
    descriptor: { referenceDescriptor: string; referenceDescriptorModel: string },
  ): Promise<void> => {
    const record = this.records.get(this.key(sub, id));
    if (record && !record.closedAt) this.touch(record, descriptor);
  };

  readonly setExecutionArn = async (sub: string, id: string, executionArn: string): Promise<void> => {
    const record = this.records.get(this.key(sub, id));
    if (record) record.executionArn = executionArn;
  };

  readonly setCheckedAt = async (sub: string, id: string, now: number): Promise<void> => {
    const record = this.records.get(this.key(sub, id));
    if (record) record.checkedAt = new Date(now).toISOString();
  };

  readonly closeGeneration = async (sub: string, id: string): Promise<GenerationRecord> => {
    const record = this.existing(sub, id);
    this.touch(record, { closedAt: record.closedAt ?? new Date().toISOString() });
    return structuredClone(record);
  };

  readonly setCreditsRefunded = async (sub: string, id: string, creditsRefunded: number): Promise<void> => {
    const record = this.records.get(this.key(sub, id));
    if (record) this.touch(record, { creditsRefunded });
  };

  readonly markFinished = async (
    sub: string,
    id: string,
    status: 'succeeded' | 'partial',
    error?: GenerationError,
  ): Promise<string> => {
    const now = new Date().toISOString();
    const record = this.records.get(this.key(sub, id));
    if (record && !isTerminal(record.status))
      this.touch(record, {
        status,
        stage: 'done',
        progress: PROGRESS.done,
        completedAt: now,
        ...(error ? { error } : {}),
      });
    return now;
  };

  readonly markFailed = async (sub: string, id: string, error: GenerationError): Promise<boolean> => {
    const record = this.existing(sub, id);
    if (isTerminal(record.status)) return false;
    const completedAt = new Date().toISOString();
    const saved = Object.keys(record.slots).length > 0;
    this.touch(
      record,
      saved
        ? { status: 'partial', stage: 'done', progress: PROGRESS.done, error, completedAt }
        : { status: 'failed', stage: 'failed', error, completedAt },
    );
    return true;
  };

  readonly claimReadyMail = async (sub: string, id: string): Promise<boolean> => {
    const record = this.records.get(this.key(sub, id));
    if (!record || record.notifiedAt) return false;
    record.notifiedAt = new Date().toISOString();
    return true;
  };

  readonly deleteGeneration = async (sub: string, id: string): Promise<void> => {
    this.records.delete(this.key(sub, id));
  };

  /** adapters/headshots/records.ts: the slot's headshot and the generation's progress, only while it is open. */
  readonly saveHeadshot = async (input: NewHeadshot): Promise<{ headshotId: string; saved: boolean }> => {
    const record = this.existing(input.sub, input.generationId);
    const existing = record.slots[String(input.slot)];
    if (existing) return { headshotId: existing, saved: false };
    if (record.closedAt) throw new GenerationClosedError(`Generation ${input.generationId} is closed`);
    const headshotId = `headshot-${++this.sequence}`;
    const { sub, creditsUsed, ...fields } = input;
    this.headshots.set(headshotId, {
      ...fields,
      id: headshotId,
      userId: sub,
      isFavorite: false,
      creditsUsed: creditsUsed ?? 1,
      createdAt: new Date().toISOString(),
    } as HeadshotRecord);
    this.touch(record, {
      slots: { ...record.slots, [String(input.slot)]: headshotId },
      imagesSaved: record.imagesSaved + 1,
      progress: record.progress + 8,
    });
    return { headshotId, saved: true };
  };

  /** adapters/retention.ts: the biometric descriptor goes; false when the generation is gone. */
  readonly deleteReferenceDescriptor = async (sub: string, id: string): Promise<boolean> => {
    const record = this.records.get(this.key(sub, id));
    if (!record) return false;
    delete record.referenceDescriptor;
    delete record.referenceDescriptorModel;
    return true;
  };

  readonly headshotIdsOfGeneration = async (sub: string, generationId: string): Promise<string[]> =>
    [...this.headshots.values()]
      .filter((h) => h.userId === sub && h.generationId === generationId)
      .map((h) => h.id);

  /** adapters/headshots/changes.ts: false when `sub` has no such headshot. */
  readonly deleteHeadshot = async (sub: string, id: string): Promise<boolean> => {
    if (this.headshots.get(id)?.userId !== sub) return false;
    return this.headshots.delete(id);
  };

  readonly getHeadshots = async (sub: string, ids: readonly string[]): Promise<HeadshotRecord[]> =>
    ids.flatMap((id) => {
      const headshot = this.headshots.get(id);
      return headshot && headshot.userId === sub ? [structuredClone(headshot)] : [];
    });
}

/**
 * The compensation's ports (use-cases/compensate-generation.ts) on `generations` and a ledger's refunds: the
 * generation items and the balance the refunds really change; `members`, a team store's member items, whose
 * allowance counters a refund gives back (fakes/team-seat-uses.ts; none by default).
 */
export function compensationPortsOf(
  generations: FakeGenerations,
  ledger: { refundCredits: CompensationPorts['refundCredits'] },
  members: Map<string, MemberRecord> = new Map(),
): CompensationPorts {
  return {
    requireGeneration: generations.requireGeneration,
    closeGeneration: generations.closeGeneration,
    setCreditsRefunded: generations.setCreditsRefunded,
    markFinished: generations.markFinished,
    markFailed: generations.markFailed,
    refundCredits: ledger.refundCredits,
    seatUseItem: fakeSeatUseItem(members),
  };
}
