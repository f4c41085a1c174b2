import { apiFetch } from '../../../lib/api-client';

/**
 * `DELETE /api/draft` (204, also when there is none): forgets the wizard's draft kept with the account.
 * @throws {ApiError} when it cannot be sent
 */
export async function deleteAccountDraft(): Promise<void> {
  await apiFetch<void>('/draft', { method: 'DELETE' });
}
