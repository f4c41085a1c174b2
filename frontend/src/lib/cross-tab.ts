import type { QueryClient } from '@tanstack/react-query';
import type { Me } from './api/contracts';
import { queryKeys } from './query-keys';

/** The channel every tab of the site shares (same origin only, by the browser's rules). */
export const CROSS_TAB_CHANNEL = 'headshot-studio';

/** What a tab tells the others when it learns that a customer's balance or running generation changed. */
interface MeChanged {
  type: 'me-changed';
  sub: string;
  /** The balance and the running generation, as one comparable string. */
  signature: string;
}

/** The part of `GET /api/me` other tabs must not show stale: the balance and the running generation. */
function signatureOf(me: Pick<Me, 'credits' | 'activeGeneration'>): string {
  return `${me.credits}|${me.activeGeneration?.id ?? ''}`;
}

/** The slice of `BroadcastChannel` this module uses (tests pass a pair of fakes). */
export type TabChannel = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  onmessage: ((event: MessageEvent) => void) | null;
};

/**
 * Keeps the balance the same in every tab (issue 27 "credits refresh across tabs"): when this tab learns a new
 * balance or running generation for a customer (`GET /api/me` answered, or its cache set after a purchase), it tells
 * the other tabs on a `BroadcastChannel`, and a tab told of a value it does not have refetches its own
 * `GET /api/me`. A tab refetching learns the same value and tells the others again, which already have it, so it
 * stops there. Side by side windows stay right without a focus change; browsers without `BroadcastChannel` still
 * refetch on focus (lib/api/get-me.ts).
 *
 * @returns a function that stops it
 */
export function shareBalanceAcrossTabs(
  client: QueryClient,
  channel: TabChannel | null = typeof BroadcastChannel === 'undefined'
    ? null
    : new BroadcastChannel(CROSS_TAB_CHANNEL),
): () => void {
  if (!channel) return () => undefined;
  const known = new Map<string, string>();
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [root, sub] = event.query.queryKey as readonly unknown[];
    const me = event.query.state.data as Me | undefined;
    if (root !== queryKeys.me.all[0] || typeof sub !== 'string' || !me) return;
    const signature = signatureOf(me);
    const before = known.get(sub);
    known.set(sub, signature);
    // The first answer of this tab changes nothing the others hold.
    if (before === undefined || before === signature) return;
    channel.postMessage({ type: 'me-changed', sub, signature } satisfies MeChanged);
  });
  channel.onmessage = (event) => {
    const message = event.data as Partial<MeChanged> | null;
    if (message?.type !== 'me-changed' || typeof message.sub !== 'string') return;
    if (known.get(message.sub) === message.signature) return;
    void client.invalidateQueries({ queryKey: queryKeys.me.of(message.sub) });
  };
  return () => {
    unsubscribe();
    channel.onmessage = null;
    channel.close();
  };
}
