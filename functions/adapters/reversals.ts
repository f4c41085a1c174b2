import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { countMetric } from '../common/metrics';
import { logger } from '../common/logger';
import { loadConfig } from '../config';
import { InsufficientCreditsError } from '../domain/credits';
import { PurchaseNotFoundError, reversalTarget, type PaymentReversal } from '../domain/reversals';
import { documentClient } from './aws';
import { PROFILE_SK, purchaseSk, userPk } from './keys';
import { CreditChangeGuardError, getUser, reverseCredits } from './ledger';
import { findPaymentIntent, getPurchase } from './purchases';
import { cancellationCodes } from './transactions';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What {@link reversePurchase} did. */
export interface ReversalResult {
  checkoutSessionId: string;
  /** Credits taken from the balance by this call (0 on a replay or an older event). */
  creditsTaken: number;
  /** Credits this call should have taken but the balance no longer had: the account was flagged for them. */
  shortfall: number;
  /** The purchase's credits reversed so far, this call included. */
  creditsReversed: number;
}

const table = () => loadConfig().TABLE_NAME;

/** The purchase moves from `prev` to `target` reversed credits, only if nobody moved it meanwhile. */
function purchaseUpdate(
  sub: string,
  sessionId: string,
  prev: number,
  target: number,
  status: string,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: { PK: userPk(sub), SK: purchaseSk(sessionId) },
      UpdateExpression: 'SET creditsReversed = :target, #status = :status, reversedAt = :now',
      ConditionExpression:
        'attribute_exists(SK) AND (creditsReversed = :prev OR (attribute_not_exists(creditsReversed) AND :prev = :zero))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':target': target,
        ':prev': prev,
        ':zero': 0,
        ':status': status,
        ':now': new Date().toISOString(),
      },
    },
  };
}

const FLAG_SET =
  'flaggedAt = :flaggedAt, flagReason = :flagReason, creditsOwed = if_not_exists(creditsOwed, :zeroOwed) + :owed';
const flagValues = (owed: number) => ({
  ':flaggedAt': new Date().toISOString(),
  ':flagReason': 'reversal-exceeds-balance',
  ':zeroOwed': 0,
  ':owed': owed,
});

/**
 * Takes back the credits of the purchase paid by `paymentIntentId` after a refund or dispute, in ONE transaction:
 * the balance (never below 0), a `reversal` ledger entry (ref `<sessionId>#reversed-<target>`, so a replay applies
 * nothing), and the purchase's `creditsReversed` moved from what was read to the new target (so concurrent events
 * cannot both apply). When the balance no longer covers the reversal, what is left is taken and the account is
 * flagged (`flaggedAt`, `flagReason`, `creditsOwed`) for a person to look at.
 *
 * @throws {PurchaseNotFoundError} when no fulfilled purchase is known for the payment intent (the webhook answers
 *   non-2xx, so Stripe delivers the event again after fulfilment)
 */
export async function reversePurchase(
  paymentIntentId: string,
  reversal: PaymentReversal,
): Promise<ReversalResult> {
  const lookup = await findPaymentIntent(paymentIntentId);
  if (!lookup) throw new PurchaseNotFoundError(paymentIntentId);
  const { sub, checkoutSessionId } = lookup;
  const status = reversal.kind === 'dispute' ? 'disputed' : 'refunded';
  for (let attempt = 1; ; attempt++) {
    const purchase = await getPurchase(sub, checkoutSessionId);
    if (!purchase) throw new PurchaseNotFoundError(paymentIntentId);
    const prev = purchase.creditsReversed;
    const target = Math.max(prev, reversalTarget(purchase.credits, reversal));
    const due = target - prev;
    if (due === 0) return { checkoutSessionId, creditsTaken: 0, shortfall: 0, creditsReversed: prev };
    const balance = (await getUser(sub))?.credits ?? 0;
    const take = Math.min(due, balance);
    const shortfall = due - take;
    const update = purchaseUpdate(sub, checkoutSessionId, prev, target, status);
    try {
      if (take > 0) {
        await reverseCredits({
          sub,
          amount: take,
          ref: `${checkoutSessionId}#reversed-${target}`,
          extraItems: [update],
          ...(shortfall > 0
            ? {
                profileGuard: {
                  condition: 'attribute_exists(PK)',
                  set: FLAG_SET,
                  values: flagValues(shortfall),
                },
              }
            : {}),
        });
      } else {
        await documentClient().send(
          new TransactWriteCommand({
            TransactItems: [
              update,
              {
                Update: {
                  TableName: table(),
                  Key: { PK: userPk(sub), SK: PROFILE_SK },
                  UpdateExpression: `SET ${FLAG_SET}`,
                  ConditionExpression: 'attribute_exists(PK) AND credits = :zeroOwed',
                  ExpressionAttributeValues: flagValues(shortfall),
                },
              },
            ],
          }),
        );
      }
    } catch (error) {
      const lostRace =
        error instanceof CreditChangeGuardError ||
        error instanceof InsufficientCreditsError ||
        cancellationCodes(error)?.includes('ConditionalCheckFailed') ||
        cancellationCodes(error)?.includes('TransactionConflict');
      if (!lostRace || attempt >= 8) throw error;
      continue;
    }
    if (shortfall > 0) {
      logger.error('Reversal larger than the balance left: account flagged', {
        sub,
        checkoutSessionId,
        shortfall,
      });
      countMetric('ReversalShortfalls');
    }
    logger.info('Purchase reversed', { checkoutSessionId, kind: reversal.kind, creditsTaken: take, target });
    return { checkoutSessionId, creditsTaken: take, shortfall, creditsReversed: target };
  }
}
