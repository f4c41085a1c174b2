import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiCall, type ApiError } from '../api-client';
import { generationStartedSchema, type GenerationStarted } from './contracts';
import { track } from '../analytics';
import { queryKeys } from '../query-keys';
import { paths } from '../../config/paths';
import { meQueryKey } from './get-me';

/** The label of the button on a headshot (results grid and gallery viewer). */
export const REGENERATE_LABEL = 'Regenerate (1 credit)';

/** Credits one regeneration costs. */
export const REGENERATE_COST = 1;

/**
 * Why Regenerate is unavailable with `credits` on the balance, or null when it is available (unknown balance: the
 * server decides). Said beside the button, so a tap on a phone never meets a silent disabled button (issue 27).
 */
export function regenerateUnavailable(credits: number | undefined): string | null {
  if (credits === undefined || credits >= REGENERATE_COST) return null;
  return `Regenerating needs ${REGENERATE_COST} credit; you have ${credits}.`;
}

/** `POST /api/headshots/{id}/regenerate` → 202: the new one-slot generation and the balance after its credit. */
export type Regeneration = GenerationStarted;

/**
 * Starts "Regenerate (1 credit)" for a headshot: one new headshot with its style, background and photos, through
 * the same workflow; the credit comes back if it fails.
 *
 * @throws {ApiError} 402 with the spec's message when under 1 credit, 409 when the photos are no longer stored
 */
export async function regenerateHeadshot(headshotId: string): Promise<Regeneration> {
  return apiCall(`/headshots/${encodeURIComponent(headshotId)}/regenerate`, generationStartedSchema, {
    method: 'POST',
  });
}

/**
 * The regenerate action for a list of headshots: calls the API, updates the balance at once (1 credit), records
 * `regenerate_started`, and toasts a failure with the API's message (402: with a link to buy credits) — unless
 * `inline`, for a caller that shows the error itself (inside a dialog, where a toast would sit behind it).
 */
export function useRegenerate(
  onStarted: (headshotId: string, generationId: string) => void,
  { inline = false }: { inline?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation<Regeneration, ApiError, string>({
    mutationFn: regenerateHeadshot,
    onSuccess: (started, headshotId) => {
      track('regenerate_started');
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
      // A team headshot's spends the member's team edits: their seat's count is read again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all });
      onStarted(headshotId, started.id);
    },
    onError: (error) => {
      if (inline) return;
      toast.error(error.message, {
        ...(error.status === 402
          ? { action: { label: 'Buy credits', onClick: () => window.location.assign(paths.pricing.href) } }
          : {}),
      });
    },
  });
}
