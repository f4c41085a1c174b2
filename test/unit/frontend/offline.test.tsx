// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toasterPlacement } from '../../../frontend/src/app/LazyToaster';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { answerUrl } from './api-mocks';
import { signedIn } from './auth-session';
import { expectToast, renderAt } from './render';
import { answerUploads, BUCKET_URL, drop, photo } from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * Offline and back (issue 35 item 4): the banner every screen shows while the browser is offline, the uploads that
 * failed for want of a network going up again by themselves once it is back, and where the toasts sit so that they
 * never cover the header or the wizard's Back on a phone.
 */

let online = true;

/** The browser going offline or back online: navigator.onLine and the window's event, as a browser does both. */
function goOnline(value: boolean) {
  online = value;
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

beforeEach(() => {
  sessionStorage.clear();
  signedIn();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const banner = () => screen.queryByTestId('offline-banner');

describe('the offline banner', () => {
  it('says the browser is offline and that the work resumes, and goes when it is back online', async () => {
    answerUploads();
    renderAt('/generator', { element: <GeneratorPage /> });
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(banner()).toBeNull();

    goOnline(false);
    expect(banner()?.textContent).toBe(
      "You're offline. We'll carry on where we left off when you're back online.",
    );
    expect(banner()?.getAttribute('role')).toBe('status');

    goOnline(true);
    expect(banner()).toBeNull();
  });

  it('shows from the first render when the page opens offline', () => {
    online = false;
    renderAt('/generator', { element: <GeneratorPage /> });
    expect(banner()).not.toBeNull();
  });
});

describe('uploads while offline', () => {
  it('sends a photo that failed for want of a network again once the browser is back online', async () => {
    answerUploads();
    // The bucket cannot be reached (a network error, status 0) until the browser is back online.
    let reachable = false;
    answerUrl('post', BUCKET_URL, () =>
      reachable
        ? new HttpResponse(null, { status: 204, headers: { 'access-control-allow-origin': '*' } })
        : HttpResponse.error(),
    );
    renderAt('/generator', { element: <GeneratorPage /> });
    goOnline(false);
    drop([photo('a.jpg')]);
    expect(await screen.findByRole('button', { name: 'Retry uploading photo 1' })).toBeTruthy();
    const continueButton = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(continueButton.disabled).toBe(true);

    reachable = true;
    goOnline(true);
    await waitFor(() => expect(continueButton.disabled).toBe(false));
    expect(screen.queryByRole('button', { name: 'Retry uploading photo 1' })).toBeNull();
    await expectToast('success', '1 file uploaded successfully');
  });

  it('leaves a photo the storage refused (not a network failure) for the customer to retry', async () => {
    const uploads = answerUploads();
    uploads.failNext();
    renderAt('/generator', { element: <GeneratorPage /> });
    drop([photo('a.jpg')]);
    const retry = await screen.findByRole('button', { name: 'Retry uploading photo 1' });
    goOnline(false);
    goOnline(true);
    // Nothing went up again by itself: the retry button is still there until pressed.
    expect(screen.getByRole('button', { name: 'Retry uploading photo 1' })).toBe(retry);
    fireEvent.click(retry);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });
});

describe('where the toasts sit (never over navigation)', () => {
  it('starts them below the header as measured, on a phone and on wider screens', () => {
    // The wizard's header on a phone: its row and the step indicator, 116 px.
    expect(toasterPlacement(116)).toEqual({
      position: 'top-right',
      offset: { top: 132, right: 24 },
      mobileOffset: { top: 124, left: 16, right: 16 },
    });
  });

  it('puts a toast below the header on screen, not over it', async () => {
    answerUploads();
    renderAt('/generator', { element: <GeneratorPage /> });
    drop([photo('a.jpg')]);
    await expectToast('success', '1 file uploaded successfully');
    const toaster = document.querySelector<HTMLElement>('[data-sonner-toaster]');
    // jsdom lays nothing out: the header measures 0 px tall, so the toasts start 8 px (phone) / 16 px down.
    expect(toaster?.style.getPropertyValue('--mobile-offset-top')).toBe('8px');
    expect(toaster?.style.getPropertyValue('--offset-top')).toBe('16px');
  });
});
