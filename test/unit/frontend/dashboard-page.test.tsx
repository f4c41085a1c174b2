// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GalleryPage, Headshot, Me } from '../../../frontend/src/lib/api/contracts';
import { formatCreatedAt } from '../../../frontend/src/lib/headshot-caption';
import { answer, apiError, held, meOf, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { renderAt } from './render';

const USER = { sub: 'user-1', email: 'ada.lovelace@example.com' };

function headshot(n: number, overrides: Partial<Headshot> = {}): Headshot {
  return {
    id: `01M80GZ6D1Q79C9B1WV0W2SV${String(n).padStart(2, '0')}`,
    generationId: '01M80GZ6D1Q79C9B1WV0W2SV7Z',
    slot: 0,
    style: 'business-casual',
    background: 'studio',
    isFavorite: false,
    createdAt: '2026-11-22T10:00:00.000Z',
    thumbnailUrl: `https://s3.example/thumb-${n}.webp`,
    imageUrl: `https://s3.example/full-${n}.jpg`,
    downloadUrl: `https://s3.example/download-${n}.jpg`,
    fileName: `headshot-${n}.jpg`,
    variants: [
      {
        variant: 'square',
        width: 1024,
        height: 1024,
        fileName: `headshot-${n}.jpg`,
        url: `https://s3.example/full-${n}.jpg`,
      },
    ],
    likeness: null,
    preview: false,
    ...overrides,
  };
}

/** The signed-in user as `GET /api/me` answers it; a test changes it before rendering. */
let me: Me;
/** `PATCH /api/me` refuses (500) while true. */
let meRefuses: boolean;

beforeEach(() => {
  signedIn(USER);
  me = meOf({ email: USER.email, displayName: 'ada.lovelace' });
  meRefuses = false;
  answer('GET /api/me', () => me);
  answer('PATCH /api/me', ({ body }) => {
    if (meRefuses) return apiError(500, 'X', 'no');
    me = { ...me, ...(body as Partial<Me>) };
    return { emailWhenReady: me.emailWhenReady };
  });
  answer('PATCH /api/headshots/{id}', ({ body }) => ({ ...headshot(1), ...(body as Partial<Headshot>) }));
});

/** The headshots of the gallery's every page: `GET /api/headshots` answers `page(...)` for any query. */
const answerGallery = (respond: (url: URL) => GalleryPage) =>
  answer('GET /api/headshots', ({ url }) => respond(url));

const page = (
  items: Headshot[],
  stats = { total: items.length, favorites: 0 },
  nextCursor: string | null = null,
): GalleryPage => ({ items, nextCursor, stats });

const cards = () => screen.queryAllByTestId('headshot-card');
const statValue = (label: string) => {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
};

describe('the dashboard', () => {
  it("has the 'E-mail me when my headshots are ready' switch, on by default, saved on the user", async () => {
    renderAt('/dashboard');
    const toggle = await screen.findByRole('switch', { name: 'E-mail me when my headshots are ready' });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    await waitFor(() => expect(requestsTo('PATCH /api/me')[0]?.body).toEqual({ emailWhenReady: false }));
    expect(me.emailWhenReady).toBe(false);

    // Refused: back to off, with a toast.
    meRefuses = true;
    fireEvent.click(toggle);
    expect(
      await screen.findByText("We couldn't save your e-mail preference. Please try again."),
    ).toBeTruthy();
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
  });

  it('greets the user and shows the stats, the filter and the cards', async () => {
    me = { ...me, credits: 4 };
    answerGallery(() =>
      page([headshot(1, { isFavorite: true, style: 'professional' }), headshot(2)], {
        total: 2,
        favorites: 1,
      }),
    );
    renderAt('/dashboard');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, ada.lovelace!' }),
    ).toBeTruthy();
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(statValue('Total Headshots')).toBe('2');
    expect(statValue('Favorites')).toBe('1');
    await waitFor(() => expect(statValue('Credits Available')).toContain('4'));
    expect(screen.getByRole('link', { name: 'Buy More Credits' }).getAttribute('href')).toBe('/pricing');

    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(within(banner).getByRole('link', { name: '4 credits' }).getAttribute('href')).toBe('/pricing');
    expect(within(banner).getByRole('link', { name: 'Generate New' }).getAttribute('href')).toBe(
      '/generator',
    );
    expect(within(banner).getByRole('button', { name: 'Sign out' })).toBeTruthy();

    const select = screen.getByRole('combobox', { name: 'Filter headshots' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual([
      'All Headshots',
      'Favorites Only',
      'Professional Style',
      'Business Casual',
      'Creative Style',
    ]);

    const [first, second] = cards();
    expect(within(first!).getByTestId('favorite-mark')).toBeTruthy();
    expect(within(second!).queryByTestId('favorite-mark')).toBeNull();
    expect(within(second!).getByText('business casual')).toBeTruthy();
    expect(within(second!).getByText('studio')).toBeTruthy();
    expect(within(second!).getByText(formatCreatedAt('2026-11-22T10:00:00.000Z'))).toBeTruthy();
    const img = second!.querySelector('img')!;
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('src')).toBe('https://s3.example/thumb-2.webp');
    expect(within(second!).getByRole('button', { name: 'Add to favorites' })).toBeTruthy();
    expect(within(first!).getByRole('button', { name: 'Remove from favorites' })).toBeTruthy();
    expect(within(second!).getByRole('button', { name: 'Download' })).toBeTruthy();
  });

  it('has no Buy More Credits button with 6 credits or more', async () => {
    answerGallery(() => page([headshot(1)]));
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));
    await waitFor(() => expect(statValue('Credits Available')).toBe('6'));
    expect(screen.queryByRole('link', { name: 'Buy More Credits' })).toBeNull();
  });

  it('tells a re-created account kindly why it has no free credits, and only then', async () => {
    me = { ...me, credits: 0, signupBonus: 'already-claimed' };
    renderAt('/dashboard');
    const notice = await screen.findByRole('region', { name: 'Good to see you again' });
    expect(within(notice).getByText(/already received them with an earlier account/)).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'See credit packs' }).getAttribute('href')).toBe(
      '/pricing',
    );
    cleanup();
    me = { ...me, signupBonus: 'granted' };
    renderAt('/dashboard');
    await waitFor(() => expect(statValue('Credits Available')).toMatch(/^0/));
    expect(screen.queryByRole('region', { name: 'Good to see you again' })).toBeNull();
  });

  it('says how many credits the account owes after a reversal it could not cover, and only then', async () => {
    me = { ...me, credits: 0, creditsOwed: 48 };
    renderAt('/dashboard');
    expect(
      await screen.findByText(
        'A refunded or disputed payment took back credits that had already been used: your account owes 48 credits, which will be taken from the next credits you receive.',
      ),
    ).toBeTruthy();
    cleanup();
    me = { ...me, creditsOwed: 0 };
    renderAt('/dashboard');
    await waitFor(() => expect(statValue('Credits Available')).toMatch(/^0/));
    expect(screen.queryByText(/your account owes/)).toBeNull();
  });

  it('tells an account at a disposable address why it has no free credits, and how to get them', async () => {
    me = { ...me, credits: 0, signupBonus: 'disposable-address' };
    renderAt('/dashboard');
    const notice = await screen.findByRole('region', { name: 'Free credits need a lasting e-mail address' });
    expect(within(notice).getByText(/disposable e-mail service/)).toBeTruthy();
    expect(within(notice).getByText(/Sign up with your usual e-mail address/)).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'See credit packs' }).getAttribute('href')).toBe(
      '/pricing',
    );
    // Once credits were bought, the notice has said its piece.
    cleanup();
    me = { ...me, credits: 12 };
    renderAt('/dashboard');
    await waitFor(() => expect(statValue('Credits Available')).toBe('12'));
    expect(screen.queryByRole('region', { name: 'Free credits need a lasting e-mail address' })).toBeNull();
  });

  it('says when headshots are offline previews, and marks each of them, only then', async () => {
    answerGallery(() => page([headshot(1, { preview: true }), headshot(2)]));
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByRole('note').textContent).toBe(
      'Offline preview: these are composites of your own photos. Set OPENAI_API_KEY for AI headshots.',
    );
    const [offline, ai] = cards();
    expect(within(offline!).getByTestId('preview-badge').textContent).toContain('Preview');
    expect(within(ai!).queryByTestId('preview-badge')).toBeNull();
  });

  it('says nothing of previews when no headshot is one', async () => {
    answerGallery(() => page([headshot(1), headshot(2)]));
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByTestId('offline-preview-notice')).toBeNull();
    expect(screen.queryByTestId('preview-badge')).toBeNull();
  });

  it('shows the empty state of a new user', async () => {
    renderAt('/dashboard');
    expect(await screen.findByText('No headshots yet')).toBeTruthy();
    expect(screen.getByText('Generate your first professional headshots with AI')).toBeTruthy();
  });

  it('reads the filter from the URL, asks the server for it, and keeps a change in the URL', async () => {
    answerGallery((url) =>
      url.searchParams.get('filter') === 'creative'
        ? page([], { total: 3, favorites: 1 })
        : page([headshot(1, { isFavorite: true })], { total: 3, favorites: 1 }),
    );
    const { router } = renderAt('/dashboard?filter=favorites');
    await waitFor(() => expect(cards()).toHaveLength(1));
    const select = screen.getByRole('combobox', { name: 'Filter headshots' }) as HTMLSelectElement;
    expect(select.value).toBe('favorites');
    expect(requestsTo('GET /api/headshots')[0]!.url.searchParams.get('filter')).toBe('favorites');

    fireEvent.change(select, { target: { value: 'creative' } });
    expect(await screen.findByText('No headshots match your filter')).toBeTruthy();
    expect(screen.getByText('Try adjusting your filter or generate new headshots')).toBeTruthy();
    expect(router.state.location.search).toBe('?filter=creative');

    fireEvent.click(screen.getByRole('button', { name: 'Show all headshots' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('toggles a favorite at once and rolls back with a toast when the server refuses', async () => {
    answerGallery(() => page([headshot(1)], { total: 1, favorites: 0 }));
    const favorite = held<'PATCH /api/headshots/{id}'>();
    answer('PATCH /api/headshots/{id}', favorite.reply);
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Add to favorites' }));
    // Optimistic: the heart and the count change before the server answers.
    expect(await screen.findByRole('button', { name: 'Remove from favorites' })).toBeTruthy();
    expect(screen.getByTestId('favorite-mark')).toBeTruthy();
    expect(statValue('Favorites')).toBe('1');
    await waitFor(() => expect(favorite.sent).toBe(true));
    expect(requestsTo('PATCH /api/headshots/{id}')).toMatchObject([
      { params: { id: headshot(1).id }, body: { isFavorite: true } },
    ]);

    await act(async () => favorite.send(apiError(500, 'INTERNAL_ERROR', 'x')));
    expect(await screen.findByText('Failed to update favorite status')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Add to favorites' })).toBeTruthy();
    expect(screen.queryByTestId('favorite-mark')).toBeNull();
    expect(statValue('Favorites')).toBe('0');
  });

  it('shows a favorite in Favorites Only when the filter was picked before the server stored it', async () => {
    // The server: the favorite counts only once the PATCH has been answered.
    let stored = false;
    const favoritesRead = held<'GET /api/headshots'>();
    answer('GET /api/headshots', ({ url }) => {
      if (url.searchParams.get('filter') !== 'favorites')
        return page([headshot(1)], { total: 1, favorites: 0 });
      if (!stored) return favoritesRead.reply();
      return page([headshot(1, { isFavorite: true })], { total: 1, favorites: 1 });
    });
    const favorite = held<'PATCH /api/headshots/{id}'>();
    answer('PATCH /api/headshots/{id}', favorite.reply);
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Add to favorites' }));
    await waitFor(() => expect(favorite.sent).toBe(true));
    // Favorites Only while the PATCH is still on its way: its first read leaves before the favorite is stored...
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter headshots' }), {
      target: { value: 'favorites' },
    });
    await waitFor(() => expect(favoritesRead.sent).toBe(true));
    stored = true;
    await act(async () => favorite.send({ ...headshot(1), isFavorite: true }));
    // ...and answers after it, from before it: the list must be read again, not left empty.
    await act(async () => favoritesRead.send(page([], { total: 1, favorites: 0 })));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(within(cards()[0]!).getByTestId('favorite-mark')).toBeTruthy();
  });

  it("loads the next page with the cursor from 'Load more'", async () => {
    answerGallery((url) =>
      url.searchParams.get('cursor') === 'page-2'
        ? page([headshot(31)], { total: 31, favorites: 0 })
        : page(
            Array.from({ length: 30 }, (_, i) => headshot(i + 1)),
            { total: 31, favorites: 0 },
            'page-2',
          ),
    );
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(30));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cards()).toHaveLength(31));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('opens the full-size view in a dialog and closes it', async () => {
    answerGallery(() => page([headshot(1)]));
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: /View full size/ }));
    const dialog = await screen.findByRole('dialog', { name: 'business casual headshot' });
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe('https://s3.example/full-1.jpg');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deletes one headshot after confirming: the card goes and the total drops', async () => {
    let remaining = [headshot(1), headshot(2, { isFavorite: true })];
    answerGallery(() => page(remaining, { total: remaining.length, favorites: 1 }));
    answer('DELETE /api/headshots/{id}', () => {
      remaining = [headshot(1)];
      return undefined;
    });
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(within(cards()[1]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this headshot?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete headshot' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(statValue('Total Headshots')).toBe('1');
    expect(requestsTo('DELETE /api/headshots/{id}').map((r) => r.params.id)).toEqual([headshot(2).id]);
    expect(await screen.findByText('Headshot deleted.')).toBeTruthy();
  });

  it('asks before deleting all photos and says what goes and what stays', async () => {
    answerGallery(() => page([headshot(1)]));
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Delete all my photos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete all your photos?' });
    for (const text of [
      'every photo you uploaded',
      'all your headshots (1)',
      'your generations',
      'your credits',
      'your purchase history',
    ]) {
      expect(within(dialog).getByText(text)).toBeTruthy();
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('DELETE /api/me/data')).toHaveLength(0);
  });
});
