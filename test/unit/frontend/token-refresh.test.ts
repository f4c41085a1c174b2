import { describe, expect, it } from 'vitest';
import { needsRefresh, REFRESH_MARGIN_MS } from '../../../frontend/src/lib/auth/token-refresh';

describe('token refresh margin', () => {
  const now = 1_800_000_000_000;
  it('refreshes within 30 s of expiry, not before', () => {
    expect(REFRESH_MARGIN_MS).toBe(30_000);
    expect(needsRefresh(now / 1000 + 31, now)).toBe(false);
    expect(needsRefresh(now / 1000 + 30, now)).toBe(true);
    expect(needsRefresh(now / 1000 + 5, now)).toBe(true);
    expect(needsRefresh(now / 1000 - 1, now)).toBe(true);
    expect(needsRefresh(undefined, now)).toBe(true);
  });
});
