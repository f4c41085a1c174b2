// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RequireAuth } from '../../../frontend/src/components/RequireAuth';
import { sanitizeReturnTo, signInPath } from '../../../frontend/src/lib/auth/return-to';
import { amplify, sessionLoading, signedIn } from './auth-session';
import { renderAt } from './render';

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
  const renderProtected = () =>
    renderAt('/dashboard', {
      element: (
        <RequireAuth>
          <h1>Your headshots</h1>
        </RequireAuth>
      ),
    });

  it('shows a spinner while authentication loads, and neither the screen nor a redirect', async () => {
    sessionLoading();
    const { here } = renderProtected();
    expect(screen.getByRole('status').textContent).toContain('Checking your account');
    await waitFor(() => expect(amplify.fetchAuthSession).toHaveBeenCalled());
    expect(screen.getByRole('status').textContent).toContain('Checking your account');
    expect(screen.queryByText('Redirecting to sign in...')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Your headshots' })).toBeNull();
    expect(here()).toBe('/dashboard');
  });

  it("says 'Redirecting to sign in...' and starts sign-in when signed out, in place of this entry", async () => {
    const { router, here } = renderProtected();
    expect(await screen.findByText('Redirecting to sign in...')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Your headshots' })).toBeNull();
    // A browser never signed in: Create Account first; back to this very page afterwards.
    await waitFor(() => expect(here()).toBe('/signin?mode=signup&returnTo=%2Fdashboard'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the screen when signed in', async () => {
    signedIn();
    const { here } = renderProtected();
    expect(await screen.findByRole('heading', { name: 'Your headshots' })).toBeTruthy();
    expect(screen.queryByText('Redirecting to sign in...')).toBeNull();
    expect(here()).toBe('/dashboard');
  });
});
