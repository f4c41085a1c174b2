import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { REGENERATE_LABEL, useRegenerate } from '../../../lib/api/regenerate-headshot';
import { useGeneration } from '../../../hooks/use-generation';

/**
 * "Regenerate (1 credit)" in the gallery viewer: starts a one-slot generation from this headshot and shows the new
 * one beside it once made (it also joins the gallery). A failure is toasted and its credit refunded.
 */
export function ViewerRegenerate({ headshotId, originalUrl }: { headshotId: string; originalUrl: string }) {
  const [generationId, setGenerationId] = useState<string | null>(null);
  const regenerate = useRegenerate((_id, started) => setGenerationId(started));
  const { data } = useGeneration(generationId);
  const made = data?.headshots[0];

  if (!generationId) {
    return (
      <Button
        variant="secondary"
        size="sm"
        loading={regenerate.isPending}
        onClick={() => regenerate.mutate(headshotId)}
      >
        {!regenerate.isPending && <RefreshCw aria-hidden="true" className="size-4" />}
        {REGENERATE_LABEL}
      </Button>
    );
  }
  return (
    <div className="w-full" data-testid="viewer-regenerated">
      <p className="text-sm font-medium text-slate-700">
        {made
          ? 'Your new headshot, beside the original:'
          : data?.status === 'failed'
            ? ''
            : 'Creating a new headshot…'}
      </p>
      <div className="mt-2 grid grid-cols-2 gap-3">
        <img
          src={originalUrl}
          alt="The original headshot"
          className="aspect-square w-full rounded-2xl object-cover"
        />
        {made ? (
          <img
            src={made.thumbnailUrl}
            alt="The new headshot"
            className="aspect-square w-full rounded-2xl object-cover"
          />
        ) : data?.status === 'failed' ? (
          <p className="flex aspect-square items-center justify-center rounded-2xl bg-slate-100 p-4 text-center text-sm text-slate-600">
            We couldn&apos;t create it this time. Your credit has been refunded.
          </p>
        ) : (
          <div className="flex aspect-square items-center justify-center rounded-2xl bg-slate-100">
            <Spinner label="Creating a new headshot" />
          </div>
        )}
      </div>
    </div>
  );
}
