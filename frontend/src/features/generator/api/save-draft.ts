import { apiFetch } from '../../../lib/api-client';
import type { AccountDraft } from '../../../lib/api/contracts';

/**
 * `PUT /api/draft` (204): keeps the wizard's draft with the account, replacing the one before; an empty draft
 * deletes it. `keepalive` lets a save sent as the page is hidden outlive the page.
 * @throws {ApiError} when it is refused or cannot be sent
 */
export async function saveAccountDraft(draft: AccountDraft, keepalive = false): Promise<void> {
  await apiFetch<void>('/draft', { method: 'PUT', body: draft, keepalive });
}
