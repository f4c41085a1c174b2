// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DeleteAccount } from '../../../frontend/src/features/gallery/components/DeleteAccount';
import { auth } from './auth-mock';
import { renderAt, stubBrowser } from './render';

/* "Delete my account" on the dashboard, with the API (`DELETE /api/me`) answered by a mocked fetch. */

const mocks = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn() },
}));
vi.mock('sonner', () => ({ toast: mocks.toast }));
vi.mock('../../../frontend/src/lib/auth', async () => (await import('./auth-mock')).authModule);
vi.mock('../../../frontend/src/lib/auth/auth-context', async () => (await import('./auth-mock')).authModule);

let answer: () => Response;
let fetchMock: ReturnType<typeof stubBrowser>;

beforeEach(() => {
  vi.clearAllMocks();
  answer = () => new Response(null, { status: 204 });
  fetchMock = stubBrowser(() => answer());
});

function openDialog(credits?: number) {
  const rendered = renderAt('/dashboard', {
    element: <DeleteAccount />,
    seed: (client) =>
      credits === undefined
        ? undefined
        : client.setQueryData(['me', 'user-1'], { credits, activeGeneration: null }),
  });
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
  return { ...rendered, dialog: screen.getByRole('dialog', { name: 'Delete your account?' }) };
}

const deleteCalls = () =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === '/api/me' && init?.method === 'DELETE');

describe('Delete my account', () => {
  it('says what goes and what stays before anything is deleted, and Cancel deletes nothing', () => {
    const { dialog } = openDialog();
    expect(within(dialog).getByText('every photo you uploaded')).toBeTruthy();
    expect(within(dialog).getByText('all your headshots and generations')).toBeTruthy();
    expect(within(dialog).getByText(/your sign-in/)).toBeTruthy();
    expect(within(dialog).getByText(/Records of your purchases.*accounting/)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deleteCalls()).toHaveLength(0);
  });

  it('names the credits still on the balance and the refund policy before the customer confirms', () => {
    const { dialog } = openDialog(87);
    expect(within(dialog).getByText('your remaining credits')).toBeTruthy();
    const lost = within(dialog).getByTestId('credits-lost');
    expect(lost.textContent).toContain('Your 87 credits are deleted with your account.');
    expect(lost.textContent).toContain(
      'Credits you bought and have not used can be refunded to your card: e-mail help@headshots.example before you delete your account.',
    );
  });

  it('says "1 credit" in the singular, and nothing about credits at 0', () => {
    const one = openDialog(1).dialog;
    expect(within(one).getByTestId('credits-lost').textContent).toContain(
      'Your 1 credit is deleted with your account.',
    );
    fireEvent.click(within(one).getByRole('button', { name: 'Cancel' }));
  });

  it('on confirmation deletes the account, goes to the landing page, signs out and says so', async () => {
    const { dialog, here } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeTruthy();
    expect(here()).toBe('/');
    expect(deleteCalls()).toHaveLength(1);
    await waitFor(() => expect(auth.signOut).toHaveBeenCalledTimes(1));
    expect(mocks.toast.success).toHaveBeenCalledWith(expect.stringMatching(/account has been deleted/));
  });

  it('stays signed in on the dashboard with a toast when the API refuses', async () => {
    answer = () => Response.json({ error: { code: 'SERVER_ERROR', message: 'Boom' } }, { status: 500 });
    const { dialog, here } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    await waitFor(() =>
      expect(mocks.toast.error).toHaveBeenCalledWith(expect.stringMatching(/couldn't delete/)),
    );
    expect(here()).toBe('/dashboard');
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Delete my account at 0 credits', () => {
  it('has no credits warning', () => {
    const { dialog } = openDialog(0);
    expect(within(dialog).queryByTestId('credits-lost')).toBeNull();
    expect(within(dialog).queryByText('your remaining credits')).toBeNull();
  });
});
