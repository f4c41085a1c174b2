// @vitest-environment jsdom
// The session stand-in first: it mocks Amplify before the SPA's session code loads it.
import { signedIn, TEST_USER } from './auth-session';
import { screen, within } from '@testing-library/react';
import { lazy, startTransition, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it } from 'vitest';
import { AuthProvider, useAuth } from '../../../frontend/src/lib/auth';

/*
 * A signed-in visitor's prerendered landing page is hydrated inside a transition (frontend/src/main.tsx) while the
 * credit packs' chunk may still be on its way: their Suspense boundary stays dehydrated until it arrives. The header
 * must turn signed in as soon as the session has been read, whatever that boundary is waiting for: the session's
 * state used to reach the header as a context change, which React also has to deliver into every dehydrated
 * boundary below it (it cannot see what is inside), so the header waited for the packs to hydrate — and, on the
 * production build, sometimes for ever (decision 014, third round). The page here is the landing page in miniature:
 * a header that reads the session and then shows a lazily loaded credits badge, and the packs in a lazily loaded
 * chunk that read it too. Each chunk arrives when the test says.
 */

/** A lazily loaded component whose chunk arrives when `load()` is called. */
function chunk(component: ComponentType): { Lazy: LazyExoticComponent<ComponentType>; load(): void } {
  let resolve: (module: { default: ComponentType }) => void = () => undefined;
  const loaded = new Promise<{ default: ComponentType }>((fulfil) => (resolve = fulfil));
  return { Lazy: lazy(() => loaded), load: () => resolve({ default: component }) };
}

function Badge() {
  return <a href="/pricing">6 credits</a>;
}

function Packs() {
  const { status } = useAuth();
  return (
    <button type="button">{status === 'signedIn' ? 'Buy 60 credits' : 'Sign in to buy 60 credits'}</button>
  );
}

interface PageParts {
  Badge: ComponentType;
  Packs: ComponentType;
}

function Header({ Badge: CreditsBadge }: Pick<PageParts, 'Badge'>) {
  const { status } = useAuth();
  return (
    <header>
      {status === 'signedIn' ? (
        <>
          <Suspense fallback={<span>…</span>}>
            <CreditsBadge />
          </Suspense>
          <button type="button">Go to Dashboard</button>
        </>
      ) : (
        <button type="button">Sign Up</button>
      )}
    </header>
  );
}

function Page({ parts }: { parts: PageParts }) {
  return (
    <MemoryRouter>
      <AuthProvider>
        <Header Badge={parts.Badge} />
        <main>
          <Suspense fallback={<p>Loading packs</p>}>
            <parts.Packs />
          </Suspense>
        </main>
      </AuthProvider>
    </MemoryRouter>
  );
}

let root: Root | undefined;

afterEach(() => {
  root?.unmount();
  root = undefined;
  document.body.innerHTML = '';
});

it('a prerendered page turns signed in while its packs are still dehydrated, and then hydrates them', async () => {
  signedIn(TEST_USER);
  const container = document.body.appendChild(document.createElement('div'));
  // At build time every part renders in place and the session is still `loading` (app/prerender.tsx).
  container.innerHTML = renderToString(<Page parts={{ Badge, Packs }} />);
  const prerenderedPacks = within(container).getByRole('button', { name: 'Sign in to buy 60 credits' });

  const packs = chunk(Packs);
  const badge = chunk(Badge);
  startTransition(() => {
    root = hydrateRoot(container, <Page parts={{ Badge: badge.Lazy, Packs: packs.Lazy }} />);
  });

  // The session is read while the packs' chunk is still on its way: the header turns at once.
  const banner = screen.getByRole('banner');
  expect(await within(banner).findByRole('button', { name: 'Go to Dashboard' })).toBeTruthy();
  expect(within(banner).queryByRole('button', { name: 'Sign Up' })).toBeNull();
  badge.load();
  expect(await within(banner).findByRole('link', { name: '6 credits' })).toBeTruthy();

  // The packs' chunk arrives: the prerendered packs are hydrated (the same element, never the fallback) and read
  // the session too.
  packs.load();
  expect(await screen.findByRole('button', { name: 'Buy 60 credits' })).toBe(prerenderedPacks);
  expect(screen.queryByText('Loading packs')).toBeNull();
});
