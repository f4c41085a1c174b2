import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * The in-memory stand-in of a DynamoDB transaction that spans two adapters. A use case composes one adapter's item
 * (a purchase's update, a payment intent's lookup, a user item's flag) into another adapter's transaction (the
 * ledger's `extraItems`, `profileGuard`); the real items are DynamoDB expressions no fake should parse. So each fake
 * item is an opaque object carrying its meaning here: a condition that must hold and the change it makes. The fake
 * that commits the transaction checks every condition first and applies every change only if all hold — all or
 * nothing, like `TransactWriteItems`.
 */

/** One item of a `TransactWriteItems`, the type the real ports take. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What a fake transaction item means: its condition, and its change once every condition held. */
export interface Effect {
  /** True when the item may commit (a refused condition cancels the whole transaction). */
  check(): boolean;
  apply(): void;
}

const effects = new WeakMap<object, Effect>();

/** A transaction item whose meaning is `effect`. */
export function effectItem(effect: Effect): TransactItem {
  const item: TransactItem = {
    ConditionCheck: { TableName: 'fake', Key: {}, ConditionExpression: 'fake effect' },
  };
  effects.set(item, effect);
  return item;
}

/** Gives `target` (a guard object, e.g. a `profileGuard`) the meaning `effect`, and returns it. */
export function withEffect<T extends object>(target: T, effect: Effect): T {
  effects.set(target, effect);
  return target;
}

/**
 * The meaning of an item made by {@link effectItem} or {@link withEffect}.
 *
 * @throws {Error} for an object no fake made: a real DynamoDB item reached a fake
 */
export function effectOf(item: object): Effect {
  const effect = effects.get(item);
  if (!effect) throw new Error('A transaction item no fake made reached a fake transaction');
  return effect;
}

/**
 * Commits `items` all or nothing.
 *
 * @returns the index of the first item whose condition failed (nothing applied), or -1 when all applied
 */
export function commitEffects(items: readonly object[]): number {
  const all = items.map(effectOf);
  const failed = all.findIndex((effect) => !effect.check());
  if (failed >= 0) return failed;
  for (const effect of all) effect.apply();
  return -1;
}
