import { ulid } from 'ulid';
import { newGenerationItem } from '../../functions/adapters/generations';
import { spendCredits, type CreditChange } from '../../functions/adapters/ledger';
import { GENERATION_COST } from '../../functions/domain/credits';
import type { GenerationStatus } from '../../functions/domain/generation-status';
import { uploadKey } from '../../functions/domain/object-keys';
import type { Background, Style } from '../../functions/domain/styles';
import type { EditOrder } from '../../functions/domain/edits';

/*
 * Generations seeded straight into the shared local stack's table, for the integration tests that need one in a
 * given state (running for 35 minutes, stranded for hours, ...) without running the workflow.
 */

/** What differs between the seeded generations; every field has a default. */
export interface GenerationSeed {
  /** Its id; default a new ULID of `createdAt`. */
  id?: string;
  /** When it was created, in ms since the epoch (also its ULID's time); default now. */
  createdAt?: number;
  /** Its status; default the new item's `queued`. */
  status?: GenerationStatus;
  /** Default `professional`. */
  style?: Style;
  /** Default `office`. */
  background?: Background;
  /** Default one upload key of the user that no test reads. */
  referenceKeys?: string[];
  /** A regeneration's 1 slot; absent for the usual 6. */
  slotCount?: number;
  /** The headshot a regeneration remakes. */
  regeneratedFrom?: string;
  /** The edit a one-slot generation makes (domain/edits.ts `EditOrder`). */
  edit?: EditOrder;
}

/**
 * The generation item of `sub` as the spend transaction writes it (adapters/generations.ts `newGenerationItem`), with
 * the seed's creation time and status, and its id.
 */
export function generationItem(
  sub: string,
  seed: GenerationSeed = {},
): { id: string; item: Record<string, unknown> } {
  const createdAt = seed.createdAt ?? Date.now();
  const id = seed.id ?? ulid(createdAt);
  const item = newGenerationItem({
    id,
    sub,
    style: seed.style ?? 'professional',
    background: seed.background ?? 'office',
    referenceKeys: seed.referenceKeys ?? [uploadKey(sub, ulid(), 0)],
    now: new Date(createdAt).toISOString(),
    slotCount: seed.slotCount,
    regeneratedFrom: seed.regeneratedFrom,
    ...(seed.edit ? { edit: seed.edit } : {}),
  });
  return { id, item: seed.status ? { ...item, status: seed.status } : item };
}

/**
 * Spends {@link GENERATION_COST} credits of `sub` on a new generation ({@link generationItem}) written in the same
 * transaction, as `POST /api/generations` does before it starts the execution (none is started here); `extraItems`
 * are committed with them. Returns the generation's id; throws as `spendCredits` does (e.g. too few credits).
 */
export async function spendOnGeneration(
  sub: string,
  seed: GenerationSeed & Pick<CreditChange, 'extraItems'> = {},
): Promise<string> {
  const { id, item } = generationItem(sub, seed);
  await spendCredits({
    sub,
    amount: GENERATION_COST,
    ref: id,
    related: { item },
    extraItems: seed.extraItems,
  });
  return id;
}
