// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { answer, apiError } from './api-mocks';
import { signedIn } from './auth-session';
import { expectToast, renderAt, toastsOf } from './render';
import { answerUploads, reachStep3 } from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * A start the provider line could not finish before its deadline (docs/decisions/019-paid-first.md): the API refuses
 * it up front (429 `provider-line`, nothing spent) and the wizard says so, without "Failed to generate", and stays on
 * step 3 with the same choices.
 */

const lineFull =
  'So many headshots are being made right now that yours could not be finished in time. Nothing was spent: please try again in 12 minutes.';

beforeEach(() => {
  sessionStorage.clear();
  signedIn();
  answerUploads();
});

describe('a start refused because the line is full', () => {
  it("shows the API's message with the time to try again and stays on step 3", async () => {
    answer(
      'POST /api/generations',
      apiError(429, 'QUOTA_EXCEEDED', lineFull, { quota: 'provider-line', retryAfterSeconds: 720 }),
    );
    renderAt('/generator', { element: <GeneratorPage /> });
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await expectToast('info', lineFull);
    expect(toastsOf('error')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' })).toBeTruthy();
  });
});
