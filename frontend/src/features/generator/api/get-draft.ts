import { apiCall } from '../../../lib/api-client';
import { wizardDraftAnswerSchema, type AccountDraft } from '../../../lib/api/contracts';

/**
 * `GET /api/draft`: the wizard's draft kept with the account (photos whose upload is gone already left out), or
 * null when there is none.
 * @throws {ApiError} when it cannot be read (offline, a server error)
 */
export async function getAccountDraft(signal?: AbortSignal): Promise<AccountDraft | null> {
  return (await apiCall('/draft', wizardDraftAnswerSchema, { signal })).draft;
}
