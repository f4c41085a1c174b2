import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { HeadshotActions } from '../../../components/HeadshotActions';
import { HeadshotCard, PendingHeadshot } from '../../../components/HeadshotCard';
import type { Headshot } from '../../../lib/api/contracts';
import { meQueryKey } from '../../../lib/api/get-me';
import { useGeneration } from '../../../hooks/use-generation';
import { queryKeys } from '../../../lib/query-keys';
import { LIKENESS_STOP_CODES } from '../utils/content';

/**
 * The new headshot of a "Regenerate (1 credit)", shown right after its original in the results grid: a pending tile
 * while its one-slot generation runs, then the headshot itself. A failed one disappears with a toast (its credit
 * is refunded by the workflow, so the balance is read again).
 */
export function RegeneratedHeadshot({
  generationId,
  position,
  onToggleFavorite,
  onDownload,
}: {
  generationId: string;
  position: number;
  onToggleFavorite: (headshot: Headshot) => void;
  onDownload: (headshot: Headshot) => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const { data } = useGeneration(generationId);
  const status = data?.status;
  const reported = useRef(false);
  useEffect(() => {
    if (reported.current || (status !== 'succeeded' && status !== 'partial' && status !== 'failed')) return;
    reported.current = true;
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
    void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
    if (status === 'failed') {
      // The likeness cap's message says why and asks for other photos; otherwise the usual one.
      const likeness = data?.error && LIKENESS_STOP_CODES.has(data.error.code) ? data.error.message : null;
      toast.error(likeness ?? "We couldn't create the new headshot. Your credit has been refunded.");
    }
  }, [data?.error, queryClient, status]);

  const headshot = data?.headshots[0];
  if (headshot) {
    return (
      <HeadshotCard
        headshot={headshot}
        placement="results"
        position={position}
        actions={
          <HeadshotActions headshot={headshot} onToggleFavorite={onToggleFavorite} onDownload={onDownload} />
        }
      />
    );
  }
  if (status === 'failed') return null;
  return <PendingHeadshot position={position} />;
}
