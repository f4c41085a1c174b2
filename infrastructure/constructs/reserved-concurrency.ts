import type * as lambda from 'aws-cdk-lib/aws-lambda';

/**
 * The functions that get reserved concurrency once the account's Lambda quota allows it (context
 * `reservedConcurrency`), and how many concurrent executions each keeps for itself
 * (docs/decisions/021-fair-routes.md):
 * - `webhooks-stripe`: Stripe's events (payments, refunds, disputes) are what credits follow; a crowd of other
 *   invocations must not throttle them. 10 at about 0.3 s each is about 30 events a second, far above a shop's rate
 *   (a throttled delivery is one Stripe retries for 3 days, so the reservation buys promptness, not correctness);
 * - `provider-dispatcher`: the provider queue admits no one while it cannot run. 2 is its SQS event source's
 *   `MaximumConcurrency` (decision 017), so the mapping is never throttled by the reservation either.
 *
 * A reservation is also a ceiling, and Lambda keeps 100 of the account's quota unreserved: "You can reserve up to the
 * Unreserved account concurrency value that is shown, minus 100"
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html). A new account's quota of 10 refuses
 * any (decision 017), hence opt-in.
 */
export const RESERVED_CONCURRENCY = {
  'webhooks-stripe': 10,
  'provider-dispatcher': 2,
} as const satisfies Record<string, number>;

/** The function names that take a reservation. */
export type ReservedFunction = keyof typeof RESERVED_CONCURRENCY;

/** Reservations by function name (a subset of {@link RESERVED_CONCURRENCY}'s names); empty: none. */
export type Reservations = Partial<Record<ReservedFunction, number>>;

/** The account quota a set of reservations needs: their sum plus the 100 Lambda keeps unreserved. */
export function quotaNeeded(reservations: Reservations): number {
  return 100 + Object.values(reservations).reduce((sum, n) => sum + (n ?? 0), 0);
}

/**
 * The reservations context `reservedConcurrency` asks for:
 * - unset or `false`: none (the default, decision 017);
 * - `true`: {@link RESERVED_CONCURRENCY};
 * - `webhooks-stripe=20,provider-dispatcher=3`: those numbers (whole numbers above 0), the others none.
 *
 * Returns `{ problem }`, one line of the synth refusal (refusal.ts), for anything else.
 */
export function parseReservedConcurrency(
  value: string | undefined,
): { reservations: Reservations } | { problem: string } {
  if (value === undefined || value === 'false') return { reservations: {} };
  if (value === 'true') return { reservations: { ...RESERVED_CONCURRENCY } };
  const reservations: Reservations = {};
  for (const pair of value.split(',')) {
    const [name, count] = pair.split('=').map((s) => s.trim());
    if (!name || !(name in RESERVED_CONCURRENCY) || !/^[1-9]\d*$/.test(count ?? '')) {
      return {
        problem: `reservedConcurrency "${value}": true, false, or name=count pairs of ${Object.keys(RESERVED_CONCURRENCY).join(', ')} (whole numbers above 0)`,
      };
    }
    reservations[name as ReservedFunction] = Number(count);
  }
  return { reservations };
}

/**
 * Sets `ReservedConcurrentExecutions` on each reserved function found by `functionNamed` (the catalogue's name).
 *
 * @throws {Error} when a reserved function is not deployed (a renamed catalogue entry would silently lose it).
 */
export function reserveConcurrency(
  reservations: Reservations,
  functionNamed: (name: string) => lambda.Function | undefined,
): void {
  for (const [name, count] of Object.entries(reservations)) {
    const fn = functionNamed(name);
    if (!fn) throw new Error(`reservedConcurrency names ${name}, which is not a deployed function`);
    (fn.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = count;
  }
}
