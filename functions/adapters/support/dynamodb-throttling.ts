import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { namedError } from '../../domain/named-error';

/*
 * Throttled DynamoDB transactions, treated like every other DynamoDB throttle (docs/architecture.md §4, "Throttled
 * table"). A throttled GetItem or UpdateItem fails with ThrottlingException (on-demand) or
 * ProvisionedThroughputExceededException, which the SDK retries and, past its attempts, throws under that name for
 * the workflow's Retry to match. A transaction whose items were throttled instead fails as TransactionCanceledException
 * with a `ThrottlingError` cancellation reason ("Error handling with DynamoDB", transactional errors), which the SDK
 * does not retry and which by its name cannot be told from a failed condition. These middlewares give it both.
 */

/**
 * The error names a workflow task fails with when DynamoDB throttles it past the SDK's retries — what Step Functions
 * matches (a Lambda task's error is its `errorType`, the thrown error's `name`): `ThrottlingException` (on-demand
 * tables), `ProvisionedThroughputExceededException` (provisioned capacity), `RequestLimitExceeded` (the account's
 * throughput quota), `TransactionConflictException` (a single-item write that met an ongoing transaction, which the
 * SDK does not retry) and {@link TransactionThrottledError}. Every Task of `statemachines/generation.asl.json` that
 * reaches the table retries them first, with backoff and jitter (test/infrastructure/workflow-retries.test.ts).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
 */
export const DYNAMODB_THROTTLING_ERRORS = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TransactionThrottledError',
] as const;

/**
 * A transaction cancelled only because DynamoDB throttled its items, after the SDK's retries: nothing was written, so
 * it can simply be sent again later. The workflow's Retry lists name it beside DynamoDB's throttling errors. `cause`
 * is the SDK's TransactionCanceledException.
 */
export class TransactionThrottledError extends namedError('TransactionThrottledError') {}

/** The cancellation reason codes of a TransactionCanceledException, or `undefined` for any other error. */
function reasonCodes(error: unknown): string[] | undefined {
  if ((error as Error | undefined)?.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

/**
 * Whether `error` is a TransactionCanceledException whose only reasons are `ThrottlingError` (items that were fine
 * say `None`): a failed condition or a conflict beside a throttle stays what it is.
 */
export function isThrottledTransaction(error: unknown): boolean {
  const codes = reasonCodes(error);
  return (
    !!codes &&
    codes.includes('ThrottlingError') &&
    codes.every((c) => c === 'ThrottlingError' || c === 'None')
  );
}

/**
 * Adds two middlewares to `client` (the document client shares its stack): inside the SDK's retry, a throttled
 * transaction is marked retryable as a throttle (`$retryable.throttling`), so the SDK backs off and sends it again as
 * it does any throttled request; outside it, one still throttled after the SDK's attempts is thrown as
 * {@link TransactionThrottledError}.
 */
export function retryThrottledTransactions(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isThrottledTransaction(error)) {
          Object.assign(error as object, { $retryable: { throttling: true } });
        }
        throw error;
      }
    },
    // After the retry middleware (finalizeRequest, priority high), so each attempt's error passes here first.
    { step: 'finalizeRequest', priority: 'low', name: 'markThrottledTransactionRetryable' },
  );
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (!isThrottledTransaction(error)) throw error;
        throw new TransactionThrottledError(
          `DynamoDB throttled the transaction's items: ${(error as Error).message}`,
          { cause: error },
        );
      }
    },
    { step: 'initialize', priority: 'high', name: 'nameThrottledTransaction' },
  );
}
