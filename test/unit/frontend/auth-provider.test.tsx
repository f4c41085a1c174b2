// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDIT_PACKS } from '../../../functions/domain/packs';
import { AppProviders } from '../../../frontend/src/app/AppProviders';
import { routes } from '../../../frontend/src/app/router';
import { meQueryKey } from '../../../frontend/src/lib/api/get-me';
import { configureAuth } from '../../../frontend/src/lib/auth/configure';
import { authenticatorServices } from '../../../frontend/src/features/auth/components/SignInPage';
import type { RuntimeConfig } from '../../../frontend/src/lib/runtime-config';

/** Amplify, replaced by a session we control and a Hub we can fire events on. */
const amplify = vi.hoisted(() => {
  type Listener = (capsule: { payload: { event: string } }) => void;
  const listeners = new Set<Listener>();
  return {
    listeners,
    fetchAuthSession: vi.fn(),
    signOut: vi.fn(async () => {}),
    signIn: vi.fn(async (input: unknown) => ({ input })),
    signUp: vi.fn(async (input: unknown) => ({ input })),
    emit(event: string) {
      for (const listener of [...listeners]) listener({ payload: { event } });
    },
  };
});

vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: amplify.fetchAuthSession,
  signOut: amplify.signOut,
  signIn: amplify.signIn,
  signUp: amplify.signUp,
}));
vi.mock('aws-amplify/utils', () => ({
  Hub: {
    listen: (_channel: string, listener: (capsule: { payload: { event: string } }) => void) => {
      amplify.listeners.add(listener);
      return () => amplify.listeners.delete(listener);
    },
  },
}));

const config: RuntimeConfig = {
  region: 'us-east-1',
  userPoolId: 'local_abc',
  userPoolClientId: 'client',
  cognitoEndpoint: null,
  apiBase: '/api',
  supportEmail: 'help@headshots.example',
  stage: 'test',
  authFlowType: 'USER_PASSWORD_AUTH',
};

const USER = { sub: 'user-1', email: 'ada@example.com' };
const ME = {
  id: USER.sub,
  email: USER.email,
  displayName: 'ada',
  credits: 6,
  createdAt: '2026-01-01T00:00:00Z',
};

function signedInSession() {
  return { tokens: { idToken: { payload: { ...USER }, toString: () => 'id-token-1' } } };
}

const fetchMock = vi.fn<typeof fetch>();
let meResponse: () => Promise<Response>;

beforeEach(() => {
  configureAuth(config);
  amplify.listeners.clear();
  amplify.fetchAuthSession.mockReset();
  amplify.fetchAuthSession.mockResolvedValue({});
  amplify.signOut.mockClear();
  amplify.signIn.mockClear();
  amplify.signUp.mockClear();
  meResponse = async () => Response.json(ME);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.endsWith('/api/me')) return meResponse();
    return Response.json({ packs: CREDIT_PACKS });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('scrollTo', vi.fn());
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders config={config} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, queryClient };
}

function here(router: ReturnType<typeof renderAt>['router']): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

describe('signed out', () => {
  it("the landing top bar reads 'Sign Up' and opens the Sign Up tab, returning to the dashboard", async () => {
    const { router } = renderAt('/');
    const banner = screen.getByRole('banner');
    fireEvent.click(await within(banner).findByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(here(router)).toBe('/signin?mode=signup&returnTo=%2Fdashboard'));
    expect(fetchMock).not.toHaveBeenCalledWith('/api/me', expect.anything());
  });

  it("'Create your headshots now' starts sign-in", async () => {
    const { router } = renderAt('/');
    await waitFor(() => expect(amplify.fetchAuthSession).toHaveBeenCalled());
    fireEvent.click(screen.getByRole('button', { name: /Create your headshots now/ }));
    await waitFor(() => expect(here(router)).toBe('/signin?returnTo=%2Fdashboard'));
  });

  it.each(['/dashboard', '/generator'])('%s redirects to sign-in and back', async (path) => {
    const { router } = renderAt(path);
    expect(await screen.findByText('Redirecting to sign in...')).toBeTruthy();
    await waitFor(() => expect(here(router)).toBe(`/signin?returnTo=${encodeURIComponent(path)}`));
  });

  it('treats a failing session read as signed out', async () => {
    amplify.fetchAuthSession.mockRejectedValue(new Error('network down'));
    renderAt('/');
    expect(await within(screen.getByRole('banner')).findByRole('button', { name: 'Sign Up' })).toBeTruthy();
  });
});

describe('signed in', () => {
  beforeEach(() => {
    amplify.fetchAuthSession.mockResolvedValue(signedInSession());
  });

  it("the landing top bar reads 'Go to Dashboard' and shows the credits, linking to /pricing", async () => {
    const { router } = renderAt('/');
    const banner = screen.getByRole('banner');
    const credits = await within(banner).findByRole('link', { name: '6 credits' });
    expect(credits.getAttribute('href')).toBe('/pricing');
    expect(within(banner).queryByRole('button', { name: 'Sign Up' })).toBeNull();

    // GET /api/me carries the ID token from the Amplify session.
    const meCall = fetchMock.mock.calls.find(([url]) => String(url) === '/api/me');
    expect(new Headers(meCall?.[1]?.headers).get('authorization')).toBe('Bearer id-token-1');

    fireEvent.click(within(banner).getByRole('button', { name: 'Go to Dashboard' }));
    await waitFor(() => expect(here(router)).toBe('/dashboard'));
  });

  it("'Get started now' goes to the dashboard", async () => {
    const { router } = renderAt('/');
    await within(screen.getByRole('banner')).findByRole('button', { name: 'Go to Dashboard' });
    fireEvent.click(screen.getByRole('button', { name: /Get started now/ }));
    await waitFor(() => expect(here(router)).toBe('/dashboard'));
  });

  it('the dashboard shows a credit skeleton, then the credits and a sign-out button', async () => {
    let answer!: (response: Response) => void;
    meResponse = () => new Promise((resolve) => (answer = resolve));
    renderAt('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Your headshots' })).toBeTruthy();
    expect(screen.getByText('Loading your credits…')).toBeTruthy();
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    await act(async () => answer(Response.json({ ...ME, credits: 1 })));
    expect((await screen.findByRole('link', { name: '1 credit' })).getAttribute('href')).toBe('/pricing');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });

  it('signing out goes home, ends the session and forgets the cached user', async () => {
    const { router, queryClient } = renderAt('/dashboard');
    await screen.findByRole('link', { name: '6 credits' });
    expect(queryClient.getQueryData([...meQueryKey, USER.sub])).toEqual(ME);

    amplify.signOut.mockImplementation(async () => amplify.emit('signedOut'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(here(router)).toBe('/'));
    expect(await within(screen.getByRole('banner')).findByRole('button', { name: 'Sign Up' })).toBeTruthy();
    expect(amplify.signOut).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData([...meQueryKey, USER.sub])).toBeUndefined();
  });

  it.each(['signedOut', 'tokenRefresh_failure'])(
    "a Hub '%s' event signs the user out of a protected screen",
    async (event) => {
      const { router } = renderAt('/dashboard');
      await screen.findByRole('link', { name: '6 credits' });
      act(() => amplify.emit(event));
      await waitFor(() => expect(here(router)).toBe('/signin?returnTo=%2Fdashboard'));
    },
  );

  it('a Hub signedIn event reads the new session', async () => {
    amplify.fetchAuthSession.mockResolvedValue({});
    renderAt('/');
    const banner = screen.getByRole('banner');
    await within(banner).findByRole('button', { name: 'Sign Up' });

    amplify.fetchAuthSession.mockResolvedValue(signedInSession());
    act(() => amplify.emit('signedIn'));
    expect(await within(banner).findByRole('button', { name: 'Go to Dashboard' })).toBeTruthy();
  });

  it('a 401 from GET /api/me ends the session', async () => {
    meResponse = async () => Response.json({ message: 'Unauthorized' }, { status: 401 });
    renderAt('/dashboard');
    await waitFor(() => expect(amplify.signOut).toHaveBeenCalled());
  });
});

describe('the sign-in screen', () => {
  it('sends a signed-in user to returnTo', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedInSession());
    const { router } = renderAt('/signin?returnTo=%2Fgenerator');
    await waitFor(() => expect(here(router)).toBe('/generator'), { timeout: 5000 });
  });

  it('ignores a returnTo on another site', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedInSession());
    const { router } = renderAt('/signin?returnTo=https%3A%2F%2Fevil.example%2F');
    await waitFor(() => expect(here(router)).toBe('/dashboard'), { timeout: 5000 });
  });

  it('opens on the Sign Up tab for ?mode=signup', async () => {
    renderAt('/signin?mode=signup');
    expect(
      await screen.findByRole('heading', { name: 'Create your account' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Create Account' }).getAttribute('aria-selected')).toBe('true');
  });

  it('signs in and up with the configured flow, and asks for auto sign-in after sign-up', async () => {
    await authenticatorServices.handleSignIn({ username: 'ada@example.com', password: 'pw' });
    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'ada@example.com',
      password: 'pw',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });

    await authenticatorServices.handleSignUp({
      username: 'ada@example.com',
      password: 'pw',
      options: { userAttributes: { email: 'ada@example.com' }, autoSignIn: true },
    });
    expect(amplify.signUp).toHaveBeenCalledWith({
      username: 'ada@example.com',
      password: 'pw',
      options: {
        userAttributes: { email: 'ada@example.com' },
        autoSignIn: { authFlowType: 'USER_PASSWORD_AUTH' },
      },
    });
  });
});
