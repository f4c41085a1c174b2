import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './aws';

/** The per-item cancellation codes of a failed TransactWriteItems, in request order ('None' where the item was fine). */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (
    !(error instanceof TransactionCanceledException) &&
    (error as Error | undefined)?.name !== 'TransactionCanceledException'
  ) {
    return undefined;
  }
  return ((error as TransactionCanceledException).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/** True when a transaction lost a race with another one on the same items and may simply be retried. */
function isRetryableConflict(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  if (name === 'TransactionConflictException' || name === 'TransactionInProgressException') return true;
  const codes = cancellationCodes(error);
  return !!codes && codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
}

/**
 * Runs a DynamoDB transaction, retrying it when it was cancelled only because a concurrent transaction touched the
 * same items (`TransactionConflict`), with capped exponential backoff and full jitter (AWS Architecture Blog,
 * "Exponential Backoff And Jitter"). Condition failures are not retried: they are answers.
 *
 * @param attempts total tries, default 10
 */
export async function withTransactionRetry<T>(fn: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      const capMs = Math.min(1_000, 25 * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * capMs));
    }
  }
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** One TransactWriteItems of `items` on the table, retried on transaction conflicts ({@link withTransactionRetry}). */
export async function transactWrite(items: TransactItems): Promise<void> {
  await withTransactionRetry(() => documentClient().send(new TransactWriteCommand({ TransactItems: items })));
}
