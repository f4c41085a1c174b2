// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GalleryPage, Headshot, Me } from '../../../frontend/src/lib/api/contracts';
import { describeHeadshot, formatCreatedAt } from '../../../frontend/src/lib/headshot-caption';
import { answer, apiError, held, meOf, requestsTo } from './api-mocks';
import { generationOf } from './fixtures';
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

/** Opens a card's '⋯' menu and returns it. */
function openActions(card: HTMLElement): HTMLElement {
  fireEvent.click(within(card).getByRole('button', { name: 'Actions' }));
  return within(card).getByRole('menu', { name: 'Actions' });
}
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
      'Outfit: Own Clothes',
      'Outfit: Suit and Tie',
      'Outfit: Blazer',
      'Outfit: Shirt',
      'Outfit: Knitwear',
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
    // The actions are in a menu under the image, none over the face; delete comes last, after a separator.
    expect(within(first!).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(within(first!).getByRole('menu', { hidden: true }).hidden).toBe(true);
    expect(
      within(openActions(second!))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Add to favorites', 'Download', 'Delete']);
    expect(within(openActions(first!)).getByRole('menuitem', { name: 'Remove from favorites' })).toBeTruthy();
    const items = within(first!).getByRole('menu').children;
    expect([...items].map((el) => el.getAttribute('role'))).toEqual([
      'menuitem',
      'menuitem',
      'separator',
      'menuitem',
    ]);
  });

  it("greets a new account with 'Welcome' and the way to generate first, before the stats and the settings", async () => {
    answerGallery(() => page([]));
    renderAt('/dashboard');
    const greeting = await screen.findByRole('heading', { level: 1, name: 'Welcome, ada.lovelace!' });
    await waitFor(() => expect(greeting.getAttribute('aria-busy')).toBeNull());
    expect(greeting.textContent).toBe('Welcome, ada.lovelace!');
    expect(
      screen.getByText(
        'Create your first headshots: upload 5-10 photos of yourself, then choose a style and a background.',
      ),
    ).toBeTruthy();
    const generate = screen.getByTestId('dashboard-generate');
    expect(generate.getAttribute('href')).toBe('/generator');
    expect(generate.textContent).toBe('Generate Headshots');
    // Document order is reading and phone order: greeting, Generate, then the stats, the gallery, the settings.
    const follows = (a: Node, b: Node) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    const stats = screen.getByRole('region', { name: 'Your statistics' });
    const gallery = screen.getByRole('heading', { level: 2, name: 'Your headshots' });
    const toggle = screen.getByRole('switch', { name: 'E-mail me when my headshots are ready' });
    expect(follows(greeting, generate)).toBe(true);
    expect(follows(generate, stats)).toBe(true);
    expect(follows(stats, gallery)).toBe(true);
    expect(follows(gallery, toggle)).toBe(true);
  });

  it("says 'Welcome back' once the account has headshots, or one generation running", async () => {
    answerGallery(() => page([headshot(1)]));
    renderAt('/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, ada.lovelace!' }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).getAttribute('aria-busy')).toBeNull();
    expect(
      screen.getByText('Your AI headshots, ready to favorite and download in full resolution.'),
    ).toBeTruthy();
    cleanup();

    me = {
      ...me,
      activeGeneration: {
        id: 'GEN1',
        status: 'running',
        progress: 20,
        headshotsExpected: 6,
        regeneratedFrom: null,
        createdAt: '2026-11-26T10:00:00.000Z',
      },
    };
    answer('GET /api/generations/{id}', generationOf({ id: 'GEN1', progress: 20 }));
    answerGallery(() => page([]));
    renderAt('/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, ada.lovelace!' }),
    ).toBeTruthy();
  });

  it('keeps the greeting unsaid while the gallery loads, and says the neutral Welcome if it fails', async () => {
    const gallery = held<'GET /api/headshots'>();
    answer('GET /api/headshots', gallery.reply);
    renderAt('/dashboard');
    const heading = await screen.findByRole('heading', { level: 1, hidden: true });
    expect(heading.getAttribute('aria-busy')).toBe('true');
    expect(heading.className).toContain('invisible');
    await waitFor(() => expect(gallery.sent).toBe(true));
    await act(async () => gallery.send(apiError(500, 'INTERNAL_ERROR', 'x')));
    await waitFor(() => expect(heading.getAttribute('aria-busy')).toBeNull());
    expect(heading.textContent).toBe('Welcome, ada.lovelace!');
    expect(heading.className).not.toContain('invisible');
  });

  it("moves through a card's menu with the keyboard and gives the focus back on Escape", async () => {
    answerGallery(() => page([headshot(1)]));
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));
    const trigger = within(cards()[0]!).getByRole('button', { name: 'Actions' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    const menu = openActions(cards()[0]!);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const items = within(menu).getAllByRole('menuitem');
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Delete');
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(menu.hidden).toBe(true);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(trigger);
    // A tap elsewhere closes it too, and deletes nothing.
    openActions(cards()[0]!);
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(menu.hidden).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
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
      'Preview headshots: these are your own photos, cut out and placed on a new background, not AI headshots, because the AI image service is not connected here. Each one carries a "PREVIEW" mark.',
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

    // An outfit (issue 36) filters the same way: the server is asked for it and the URL keeps it.
    fireEvent.change(select, { target: { value: 'blazer' } });
    await waitFor(() =>
      expect(requestsTo('GET /api/headshots').at(-1)!.url.searchParams.get('filter')).toBe('blazer'),
    );
    expect(router.state.location.search).toBe('?filter=blazer');
  });

  it('toggles a favorite at once and rolls back with a toast when the server refuses', async () => {
    answerGallery(() => page([headshot(1)], { total: 1, favorites: 0 }));
    const favorite = held<'PATCH /api/headshots/{id}'>();
    answer('PATCH /api/headshots/{id}', favorite.reply);
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));

    fireEvent.click(within(openActions(cards()[0]!)).getByRole('menuitem', { name: 'Add to favorites' }));
    // Optimistic: the heart and the count change before the server answers.
    expect(
      await within(openActions(cards()[0]!)).findByRole('menuitem', { name: 'Remove from favorites' }),
    ).toBeTruthy();
    expect(screen.getByTestId('favorite-mark')).toBeTruthy();
    expect(statValue('Favorites')).toBe('1');
    await waitFor(() => expect(favorite.sent).toBe(true));
    expect(requestsTo('PATCH /api/headshots/{id}')).toMatchObject([
      { params: { id: headshot(1).id }, body: { isFavorite: true } },
    ]);

    await act(async () => favorite.send(apiError(500, 'INTERNAL_ERROR', 'x')));
    expect(await screen.findByText('Failed to update favorite status')).toBeTruthy();
    expect(await screen.findByRole('menuitem', { name: 'Add to favorites' })).toBeTruthy();
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

    fireEvent.click(within(openActions(cards()[0]!)).getByRole('menuitem', { name: 'Add to favorites' }));
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
    fireEvent.click(within(openActions(cards()[1]!)).getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this headshot?' });
    // The dialog shows which headshot goes: its thumbnail, named by what it is.
    const shown = within(dialog).getByRole('img');
    expect(shown.getAttribute('src')).toBe('https://s3.example/thumb-2.webp');
    expect(shown.getAttribute('alt')).toBe(describeHeadshot(headshot(2)));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete headshot' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(statValue('Total Headshots')).toBe('1');
    expect(requestsTo('DELETE /api/headshots/{id}').map((r) => r.params.id)).toEqual([headshot(2).id]);
    expect(await screen.findByText('Headshot deleted.')).toBeTruthy();
  });

  it('deletes from the full-size view too, its Delete after the downloads, and closes the view', async () => {
    let remaining = [headshot(1)];
    answerGallery(() => page(remaining));
    answer('DELETE /api/headshots/{id}', () => {
      remaining = [];
      return undefined;
    });
    renderAt('/dashboard');
    await waitFor(() => expect(cards()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: /View full size/ }));
    const viewer = await screen.findByRole('dialog', { name: 'business casual headshot' });
    const remove = within(viewer).getByRole('button', { name: 'Delete' });
    const downloads = within(viewer).getByRole('heading', { name: 'Download for' });
    expect(downloads.compareDocumentPosition(remove) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(remove);
    const confirm = await screen.findByRole('dialog', { name: 'Delete this headshot?' });
    expect(within(confirm).getByRole('img').getAttribute('src')).toBe('https://s3.example/thumb-1.webp');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete headshot' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('DELETE /api/headshots/{id}').map((r) => r.params.id)).toEqual([headshot(1).id]);
    expect(await screen.findByText('No headshots yet')).toBeTruthy();
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
