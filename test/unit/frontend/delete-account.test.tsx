// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DeleteAccount } from '../../../frontend/src/features/dashboard/components/DeleteAccount';
import { answer, apiError, meOf, never, requestsTo } from './api-mocks';
import { amplify, signedIn } from './auth-session';
import { expectToast, renderAt } from './render';

/* "Delete my account" on the dashboard, with the API's `DELETE /api/me` answered by the mock server. */

beforeEach(() => {
  signedIn();
  answer('DELETE /api/me', undefined);
});

/** The dialog open, once the balance is known (`credits`; none: `GET /api/me` has not answered). */
async function openDialog(credits?: number) {
  answer('GET /api/me', credits === undefined ? never : meOf({ credits }));
  const rendered = renderAt('/dashboard', { element: <DeleteAccount /> });
  if (credits !== undefined)
    await waitFor(() => expect(rendered.queryClient.getQueryData(['me', 'user-1'])).toBeTruthy());
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
  return { ...rendered, dialog: screen.getByRole('dialog', { name: 'Delete your account?' }) };
}

const deleteCalls = () => requestsTo('DELETE /api/me');

describe('Delete my account', () => {
  it('says what goes and what stays before anything is deleted, and Cancel deletes nothing', async () => {
    const { dialog } = await openDialog();
    expect(within(dialog).getByText('every photo you uploaded')).toBeTruthy();
    expect(within(dialog).getByText('all your headshots and generations')).toBeTruthy();
    expect(within(dialog).getByText(/your sign-in/)).toBeTruthy();
    expect(within(dialog).getByText(/Records of your purchases.*accounting/)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deleteCalls()).toHaveLength(0);
  });

  it('names the credits still on the balance and the refund policy before the customer confirms', async () => {
    const { dialog } = await openDialog(87);
    expect(within(dialog).getByText('your remaining credits')).toBeTruthy();
    const lost = within(dialog).getByTestId('credits-lost');
    expect(lost.textContent).toContain('Your 87 credits are deleted with your account.');
    expect(lost.textContent).toContain(
      'Credits you bought and have not used can be refunded to your card: e-mail help@headshots.example before you delete your account.',
    );
  });

  it('says "1 credit" in the singular, and nothing about credits at 0', async () => {
    const one = (await openDialog(1)).dialog;
    expect(within(one).getByTestId('credits-lost').textContent).toContain(
      'Your 1 credit is deleted with your account.',
    );
    fireEvent.click(within(one).getByRole('button', { name: 'Cancel' }));
  });

  it('on confirmation deletes the account, goes to the landing page, signs out and says so', async () => {
    const { dialog, here } = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeTruthy();
    expect(here()).toBe('/');
    expect(deleteCalls()).toHaveLength(1);
    await waitFor(() => expect(amplify.signOut).toHaveBeenCalledTimes(1));
    await expectToast('success', /account has been deleted/);
  });

  it('stays signed in on the dashboard with a toast when the API refuses', async () => {
    answer('DELETE /api/me', apiError(500, 'SERVER_ERROR', 'Boom'));
    const { dialog, here } = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    await expectToast('error', /couldn't delete/);
    expect(here()).toBe('/dashboard');
    expect(amplify.signOut).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Delete my account at 0 credits', () => {
  it('has no credits warning', async () => {
    const { dialog } = await openDialog(0);
    expect(within(dialog).queryByTestId('credits-lost')).toBeNull();
    expect(within(dialog).queryByText('your remaining credits')).toBeNull();
  });
});
