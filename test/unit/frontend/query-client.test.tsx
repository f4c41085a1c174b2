// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WithQueryClient } from '../../../frontend/src/lib/query-client';

/** Renders `WithQueryClient` (optionally below a provider of `outer`) and returns the client its child saw. */
function clientSeen(outer?: QueryClient): QueryClient {
  let seen: QueryClient | undefined;
  function Probe() {
    seen = useQueryClient();
    return null;
  }
  const tree = (
    <WithQueryClient>
      <Probe />
    </WithQueryClient>
  );
  const { unmount } = render(outer ? <QueryClientProvider client={outer}>{tree}</QueryClientProvider> : tree);
  unmount();
  if (!seen) throw new Error('the probe did not render');
  return seen;
}

describe('WithQueryClient (react-query for the parts of the SPA that read the API)', () => {
  it('uses the client an ancestor provides (tests, the build-time render)', () => {
    const outer = new QueryClient();
    expect(clientSeen(outer)).toBe(outer);
  });

  it('otherwise gives every part the same shared client, so they share one cache', () => {
    const first = clientSeen();
    first.setQueryData(['probe'], 42);
    const second = clientSeen();
    expect(second).toBe(first);
    expect(second.getQueryData(['probe'])).toBe(42);
  });
});
