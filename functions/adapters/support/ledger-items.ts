import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import type { LedgerReason } from '../../domain/credits';
import { ledgerRefSk, ledgerSk, userPk } from './keys';

/*
 * The items every credit change writes in its transaction (docs/architecture.md §2: credits = Σ ledger), shared by
 * the ledger (adapters/ledger.ts) and the user's creation (adapters/user-creation.ts).
 */

/** One item of a `TransactWriteItems`. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => storageSettings().TABLE_NAME;

/** The idempotency marker of a credit change: `LEDGER_REF#<reason>#<ref>`, new only (a replay is refused). */
export function markerPut(
  sub: string,
  reason: LedgerReason,
  ref: string,
  entryId: string,
  now: string,
): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { PK: userPk(sub), SK: ledgerRefSk(reason, ref), type: 'ledgerRef', entryId, createdAt: now },
      ConditionExpression: 'attribute_not_exists(SK)',
    },
  };
}

/** A ledger entry `LEDGER#<entryId>` with its signed `delta` (credits), `reason` and `ref`. */
export function ledgerPut(
  sub: string,
  entryId: string,
  delta: number,
  reason: LedgerReason,
  ref: string,
  now: string,
): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { PK: userPk(sub), SK: ledgerSk(entryId), type: 'ledger', delta, reason, ref, createdAt: now },
      ConditionExpression: 'attribute_not_exists(SK)',
    },
  };
}
