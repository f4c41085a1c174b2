// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthContextValue } from '../../../frontend/src/lib/auth';
import { RequireAuth } from '../../../frontend/src/components/RequireAuth';
import { sanitizeReturnTo, signInPath } from '../../../frontend/src/lib/auth/return-to';
import { renderAt } from './render';

const auth = vi.hoisted(() => ({
  current: {
    status: 'loading',
    user: null,
    signIn: () => {},
    signOut: async () => {},
  } as AuthContextValue,
}));

vi.mock('../../../frontend/src/lib/auth/auth-context', () => ({ useAuth: () => auth.current }));

describe('sanitizeReturnTo', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/generator?step=2#top', '/generator?step=2#top'],
    ['/pricing', '/pricing'],
    ['/', '/'],
    ['/a/../dashboard', '/dashboard'],
  ])('keeps the same-origin path %s', (value, expected) => {
    expect(sanitizeReturnTo(value)).toBe(expected);
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['an empty string', ''],
    ['an absolute URL', 'https://evil.example/dashboard'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash host', '/\\evil.example'],
    ['a tab-smuggled host', '/\t/evil.example'],
    ['a newline', '/dashboard\n'],
    ['javascript:', 'javascript:alert(1)'],
    ['a relative path', 'dashboard'],
    ['the sign-in route itself', '/signin?returnTo=/dashboard'],
    ['a very long value', `/${'a'.repeat(3000)}`],
  ])('falls back to /dashboard for %s', (_name, value) => {
    expect(sanitizeReturnTo(value)).toBe('/dashboard');
  });

  it('uses the given fallback', () => {
    expect(sanitizeReturnTo('https://evil.example', '/')).toBe('/');
  });
});

describe('signInPath', () => {
  it('builds the sign-in URL with a safe returnTo and the sign-up mode', () => {
    expect(signInPath()).toBe('/signin');
    expect(signInPath({ returnTo: '/generator?x=1' })).toBe('/signin?returnTo=%2Fgenerator%3Fx%3D1');
    expect(signInPath({ returnTo: '/dashboard', mode: 'signUp' })).toBe(
      '/signin?mode=signup&returnTo=%2Fdashboard',
    );
  });

  it('drops an unsafe returnTo', () => {
    expect(signInPath({ returnTo: '//evil.example' })).toBe('/signin');
  });
});

describe('RequireAuth', () => {
  const signIn = vi.fn<AuthContextValue['signIn']>();

  beforeEach(() => {
    signIn.mockReset();
  });

  function renderProtected(status: AuthContextValue['status']) {
    auth.current = {
      status,
      user: status === 'signedIn' ? { sub: 'user-1', email: 'ada@example.com' } : null,
      signIn,
      signOut: async () => {},
    };
    return renderAt('/dashboard', {
      element: (
        <RequireAuth>
          <h1>Your headshots</h1>
        </RequireAuth>
      ),
    });
  }

  it('shows a spinner while authentication loads, and neither the screen nor a redirect', () => {
    renderProtected('loading');
    expect(screen.getByRole('status').textContent).toContain('Checking your account');
    expect(screen.queryByText('Redirecting to sign in...')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Your headshots' })).toBeNull();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("says 'Redirecting to sign in...' and starts sign-in when signed out", () => {
    renderProtected('signedOut');
    expect(screen.getByText('Redirecting to sign in...')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Your headshots' })).toBeNull();
    expect(signIn).toHaveBeenCalledTimes(1);
    expect(signIn).toHaveBeenCalledWith(undefined, { replace: true });
  });

  it('shows the screen when signed in', () => {
    renderProtected('signedIn');
    expect(screen.getByRole('heading', { name: 'Your headshots' })).toBeTruthy();
    expect(screen.queryByText('Redirecting to sign in...')).toBeNull();
    expect(signIn).not.toHaveBeenCalled();
  });
});
