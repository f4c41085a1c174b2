import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall, type ApiError } from '../../../lib/api-client';
import {
  generationStartedSchema,
  type EditHeadshotBody,
  type GenerationStarted,
} from '../../../lib/api/contracts';
import { meQueryKey } from '../../../lib/api/get-me';
import { queryKeys } from '../../../lib/query-keys';

/** One edit to start: the headshot (the gallery's item) and the body of `POST /api/headshots/{id}/edits`. */
export interface EditStart {
  headshotId: string;
  body: EditHeadshotBody;
}

/**
 * `POST /api/headshots/{id}/edits` (functions/contracts/edits.ts) → 202: the one-slot generation that makes the new
 * version, and the balance after its credit (docs/product-spec.md §2 "Edit a headshot").
 *
 * @throws {ApiError} 402 under 1 credit, 429 over the hourly edits quota, 404 when the headshot or version is gone,
 *   `INVALID_RESPONSE` when the answer is not a started generation
 */
export async function startEdit({ headshotId, body }: EditStart): Promise<GenerationStarted> {
  return apiCall(`/headshots/${encodeURIComponent(headshotId)}/edits`, generationStartedSchema, {
    method: 'POST',
    body,
  });
}

/**
 * The Edit sheet's confirm ({@link startEdit}): on success the balance is read again (1 credit went) and
 * `onStarted` gets the generation's id to poll. A refusal is left to the caller, which shows it inside the sheet (a
 * toast would sit behind the dialog).
 */
export function useStartEdit(onStarted: (generationId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation<GenerationStarted, ApiError, EditStart>({
    mutationFn: startEdit,
    onSuccess: (started) => {
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
      // A team headshot's spends the member's team edits: their seat's count is read again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all });
      onStarted(started.id);
    },
  });
}
