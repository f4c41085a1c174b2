import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiFetch } from '../../../lib/api-client';

/**
 * `DELETE /api/me` (204): deletes the caller's account — the sign-in (the Cognito user), every photo, headshot and
 * generation, and the e-mail address on the profile. Purchases and the credit ledger are kept under a pseudonymous
 * id, for accounting (docs/architecture.md §3 "API").
 * @throws {ApiError} 409 while a generation is running, 5xx/0 when it could not be done now (nothing is lost: it can
 *   be asked again)
 */
export async function deleteAccount(): Promise<void> {
  await apiFetch<void>('/me', { method: 'DELETE' });
}

/** {@link deleteAccount} as a mutation; the caller signs out and leaves the dashboard on success. */
export function useDeleteAccount() {
  return useMutation<void, ApiError, void>({ mutationFn: deleteAccount });
}
