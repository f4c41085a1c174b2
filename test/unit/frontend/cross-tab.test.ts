import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { shareBalanceAcrossTabs, type TabChannel } from '../../../frontend/src/lib/cross-tab';

/** Two tabs' channels wired to each other, delivering as the browser does (never to the sender). */
function channelPair(): [TabChannel, TabChannel] {
  const make = (): TabChannel & { peer?: TabChannel } => ({
    onmessage: null,
    postMessage(data: unknown) {
      const peer = this.peer;
      queueMicrotask(() => peer?.onmessage?.({ data } as MessageEvent));
    },
    close() {},
  });
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

const me = (credits: number, active: string | null = null) => ({
  id: 'u1',
  credits,
  activeGeneration: active ? { id: active } : null,
});
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the balance across tabs', () => {
  it('a new balance in one tab makes the other refetch its own GET /api/me, once, and the echo stops there', async () => {
    const [channelA, channelB] = channelPair();
    const tabA = new QueryClient();
    const tabB = new QueryClient();
    shareBalanceAcrossTabs(tabA, channelA);
    shareBalanceAcrossTabs(tabB, channelB);
    let server = me(6);
    let fetchesB = 0;
    const fetchB = () =>
      tabB.fetchQuery({
        queryKey: ['me', 'u1'],
        queryFn: async () => {
          fetchesB += 1;
          return server;
        },
      });
    tabA.setQueryData(['me', 'u1'], me(6));
    await fetchB();
    expect(fetchesB).toBe(1);

    // Tab A buys credits (the payment page sets its cache): tab B is told and its query is invalidated.
    server = me(66, null);
    tabA.setQueryData(['me', 'u1'], me(66));
    await flush();
    expect(tabB.getQueryState(['me', 'u1'])?.isInvalidated).toBe(true);

    // Tab B fetches the same value: it tells tab A, which already has it and does nothing.
    await fetchB();
    await flush();
    expect(tabA.getQueryState(['me', 'u1'])?.isInvalidated).toBe(false);
  });

  it('a generation started in one tab is announced too (the running generation is part of what is shared)', async () => {
    const [channelA, channelB] = channelPair();
    const tabA = new QueryClient();
    const tabB = new QueryClient();
    shareBalanceAcrossTabs(tabA, channelA);
    shareBalanceAcrossTabs(tabB, channelB);
    tabA.setQueryData(['me', 'u1'], me(6));
    tabB.setQueryData(['me', 'u1'], me(6));
    tabA.setQueryData(['me', 'u1'], me(0, 'GEN1'));
    await flush();
    expect(tabB.getQueryState(['me', 'u1'])?.isInvalidated).toBe(true);
  });

  it('does nothing without BroadcastChannel', () => {
    expect(shareBalanceAcrossTabs(new QueryClient(), null)()).toBeUndefined();
  });
});
