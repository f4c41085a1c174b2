// @vitest-environment jsdom
// The session stand-in first: the sign-in screen imports Amplify statically.
import { amplify, signedIn, signedOut, TEST_USER } from './auth-session';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { meQueryKey } from '../../../frontend/src/lib/api/get-me';
import {
  authenticatorServices,
  SIGN_UP_REFUSED_MESSAGE,
} from '../../../frontend/src/features/auth/components/SignInPage';
import { answer, held, meOf, requestsTo } from './api-mocks';
import { renderAt } from './render';

const ME = meOf();

beforeEach(() => {
  // Tokens stored (so the SPA loads Amplify and reads them) but no session in them; a browser never signed in.
  signedOut({ storedTokens: true });
});

const here = (rendered: { here: () => string }) => rendered.here();

describe('signed out', () => {
  it("the landing top bar reads 'Sign Up' and opens the Sign Up tab, returning to the dashboard", async () => {
    const router = renderAt('/');
    const banner = screen.getByRole('banner');
    fireEvent.click(await within(banner).findByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(here(router)).toBe('/signin?mode=signup&returnTo=%2Fdashboard'));
    expect(requestsTo('GET /api/me')).toHaveLength(0);
  });

  // Changed on purpose (issue 27): a new visitor starts on Create Account; a browser signed in before on Sign In.
  it("'Create your headshots now' starts sign-in on Create Account for a new visitor", async () => {
    const router = renderAt('/');
    await waitFor(() => expect(amplify.fetchAuthSession).toHaveBeenCalled());
    fireEvent.click(screen.getByRole('button', { name: /Create your headshots now/ }));
    await waitFor(() => expect(here(router)).toBe('/signin?mode=signup&returnTo=%2Fdashboard'));
  });

  it("'Create your headshots now' opens Sign In in a browser that was signed in before", async () => {
    localStorage.setItem('hs.signedInBefore', '1');
    const router = renderAt('/');
    await waitFor(() => expect(amplify.fetchAuthSession).toHaveBeenCalled());
    fireEvent.click(screen.getByRole('button', { name: /Create your headshots now/ }));
    await waitFor(() => expect(here(router)).toBe('/signin?returnTo=%2Fdashboard'));
  });

  it.each(['/dashboard', '/generator'])('%s redirects to sign-in and back', async (path) => {
    const router = renderAt(path);
    expect(await screen.findByText('Redirecting to sign in...')).toBeTruthy();
    await waitFor(() =>
      expect(here(router)).toBe(`/signin?mode=signup&returnTo=${encodeURIComponent(path)}`),
    );
  });

  it('is signed out at once, without loading Amplify, in a browser that holds no tokens', async () => {
    localStorage.clear();
    renderAt('/');
    expect(await within(screen.getByRole('banner')).findByRole('button', { name: 'Sign Up' })).toBeTruthy();
    expect(amplify.fetchAuthSession).not.toHaveBeenCalled();
  });

  it('treats a failing session read as signed out', async () => {
    amplify.fetchAuthSession.mockRejectedValue(new Error('network down'));
    renderAt('/');
    expect(await within(screen.getByRole('banner')).findByRole('button', { name: 'Sign Up' })).toBeTruthy();
  });
});

describe('signed in', () => {
  beforeEach(() => signedIn(TEST_USER, 'id-token-1'));

  it("the landing top bar reads 'Go to Dashboard' and shows the credits, linking to /pricing", async () => {
    const router = renderAt('/');
    const banner = screen.getByRole('banner');
    const credits = await within(banner).findByRole('link', { name: '6 credits' });
    expect(credits.getAttribute('href')).toBe('/pricing');
    expect(within(banner).queryByRole('button', { name: 'Sign Up' })).toBeNull();

    // GET /api/me carries the ID token from the Amplify session.
    expect(requestsTo('GET /api/me')[0]?.headers.get('authorization')).toBe('Bearer id-token-1');

    fireEvent.click(within(banner).getByRole('button', { name: 'Go to Dashboard' }));
    await waitFor(() => expect(here(router)).toBe('/dashboard'));
  });

  it("'Get started now' goes to the dashboard", async () => {
    const router = renderAt('/');
    await within(screen.getByRole('banner')).findByRole('button', { name: 'Go to Dashboard' });
    fireEvent.click(screen.getByRole('button', { name: /Get started now/ }));
    await waitFor(() => expect(here(router)).toBe('/dashboard'));
  });

  it('the dashboard shows a credit skeleton, then the credits and a sign-out button', async () => {
    const me = held<'GET /api/me'>();
    answer('GET /api/me', me.reply);
    renderAt('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Your headshots' })).toBeTruthy();
    expect(screen.getByText('Loading your credits…')).toBeTruthy();
    await waitFor(() => expect(me.sent).toBe(true));
    await act(async () => me.send({ ...ME, credits: 1 }));
    expect((await screen.findByRole('link', { name: '1 credit' })).getAttribute('href')).toBe('/pricing');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });

  it('signing out goes home, ends the session and forgets the cached user', async () => {
    const router = renderAt('/dashboard');
    await screen.findByRole('link', { name: '6 credits' });
    expect(router.queryClient.getQueryData([...meQueryKey, TEST_USER.sub])).toEqual(ME);

    amplify.signOut.mockImplementation(async () => amplify.emit('signedOut'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(here(router)).toBe('/'));
    expect(await within(screen.getByRole('banner')).findByRole('button', { name: 'Sign Up' })).toBeTruthy();
    expect(amplify.signOut).toHaveBeenCalledTimes(1);
    expect(router.queryClient.getQueryData([...meQueryKey, TEST_USER.sub])).toBeUndefined();
  });

  it.each(['signedOut', 'tokenRefresh_failure'])(
    "a Hub '%s' event signs the user out of a protected screen",
    async (event) => {
      const router = renderAt('/dashboard');
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

    signedIn(TEST_USER, 'id-token-1');
    act(() => amplify.emit('signedIn'));
    expect(await within(banner).findByRole('button', { name: 'Go to Dashboard' })).toBeTruthy();
  });

  it('a 401 from GET /api/me ends the session', async () => {
    answer('GET /api/me', Response.json({ message: 'Unauthorized' }, { status: 401 }));
    renderAt('/dashboard');
    await waitFor(() => expect(amplify.signOut).toHaveBeenCalled());
  });
});

describe('the sign-in screen', () => {
  it('sends a signed-in user to returnTo', async () => {
    signedIn();
    const router = renderAt('/signin?returnTo=%2Fgenerator');
    await waitFor(() => expect(here(router)).toBe('/generator'), { timeout: 5000 });
  });

  it('ignores a returnTo on another site', async () => {
    signedIn();
    const router = renderAt('/signin?returnTo=https%3A%2F%2Fevil.example%2F');
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

  it('says why a sign-up the user pool’s firewall refused failed, and passes other errors on as they are', async () => {
    const waf = Object.assign(new Error('Request not allowed due to WAF block.'), {
      name: 'ForbiddenException',
    });
    amplify.signUp.mockRejectedValueOnce(waf);
    const input = { username: 'ada@example.com', password: 'pw' };
    await expect(authenticatorServices.handleSignUp(input)).rejects.toThrow(SIGN_UP_REFUSED_MESSAGE);
    const taken = Object.assign(new Error('User already exists'), { name: 'UsernameExistsException' });
    amplify.signUp.mockRejectedValueOnce(taken);
    await expect(authenticatorServices.handleSignUp(input)).rejects.toBe(taken);
  });
});
