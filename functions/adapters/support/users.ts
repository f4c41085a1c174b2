import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import { signupBonusOf, type SignupBonus } from '../../domain/signup-bonus';
import { documentClient } from './aws';
import { PROFILE_SK, userPk } from './keys';

/*
 * The user item as the adapters read it: the ledger (a balance after a change), the user's creation (the user it
 * returns) and the others that condition on it share this one reading, so its fields are decoded in one place.
 */

/** The user item (docs/architecture.md §2 `USER#<sub>` / `PROFILE`). Timestamps are ISO 8601 UTC. */
export interface UserRecord {
  id: string;
  email: string;
  displayName: string;
  /** Whole credits, never negative; always equal to the sum of the user's ledger deltas. */
  credits: number;
  /**
   * Credits the account owes: a refund or dispute took back credits already spent (docs/architecture.md §2). The
   * next credits it receives — a purchase, a refund, credits given back — pay this first. 0 when nothing is owed.
   */
  creditsOwed: number;
  /**
   * `already-claimed` when an earlier account of the same person had the sign-up bonus, `disposable-address` when the
   * address is at a disposable e-mail service (this one started at 0 either way).
   */
  signupBonus: SignupBonus;
  /** The user's newest generation (at most one is in flight: a new one needs this one terminal). */
  lastGenerationId?: string;
  /** Set when the account's deletion started: no generation may start any more. ISO 8601 UTC. */
  deletingAt?: string;
  /** Set when the account was deleted: this item is a tombstone without e-mail (use-cases/delete-account.ts). */
  deletedAt?: string;
  /** "E-mail me when my headshots are ready" (dashboard); on unless turned off. */
  emailWhenReady: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Reads a user item with a strongly consistent read; `undefined` when there is none. */
export async function getUser(sub: string): Promise<UserRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: storageSettings().TABLE_NAME,
      Key: { PK: userPk(sub), SK: PROFILE_SK },
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return {
    id: sub,
    email: String(Item.email ?? ''),
    displayName: String(Item.displayName ?? ''),
    credits: Number(Item.credits ?? 0),
    creditsOwed: Math.max(0, Number(Item.creditsOwed ?? 0)),
    ...(typeof Item.lastGenerationId === 'string' ? { lastGenerationId: Item.lastGenerationId } : {}),
    ...(typeof Item.deletingAt === 'string' ? { deletingAt: Item.deletingAt } : {}),
    ...(typeof Item.deletedAt === 'string' ? { deletedAt: Item.deletedAt } : {}),
    signupBonus: signupBonusOf(Item.signupBonus),
    emailWhenReady: Item.emailWhenReady !== false,
    createdAt: String(Item.createdAt),
    updatedAt: String(Item.updatedAt ?? Item.createdAt),
  };
}
