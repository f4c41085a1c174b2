import { RefreshCw, TriangleAlert } from 'lucide-react';
import { Button } from '../ui/Button';
import { ApiError } from '../../lib/api-client';
import { usePacks, type Pack, type PackId } from '../../lib/api/get-packs';
import { PackCard } from './PackCard';
import { PackGridSkeleton } from './PackGridSkeleton';

/** Props of {@link PackGrid}. */
export interface PackGridProps {
  /** Called with the pack whose buy button was pressed. */
  onSelect: (pack: Pack) => void;
  /** The pack whose purchase is starting, if any: its button shows 'Processing...' and the others are disabled. */
  pendingPackId?: PackId | null;
}

/**
 * The three credit packs from `GET /api/packs`, with a loading skeleton and an error state with retry. Used by the
 * landing page's pricing section and the /pricing page.
 */
export function PackGrid({ onSelect, pendingPackId = null }: PackGridProps) {
  const { data: packs, isPending, isError, error, refetch, isRefetching } = usePacks();

  if (isPending) return <PackGridSkeleton />;
  if (isError) {
    return (
      <div
        role="alert"
        className="mx-auto flex max-w-lg flex-col items-center rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200"
      >
        <TriangleAlert aria-hidden="true" className="size-8 text-amber-600" />
        <p className="mt-4 font-semibold text-slate-900">We couldn&apos;t load the credit packs.</p>
        <p className="mt-1 text-sm text-slate-600">
          {error instanceof ApiError ? error.message : 'Please check your connection and try again.'}
        </p>
        <Button className="mt-6" variant="secondary" loading={isRefetching} onClick={() => void refetch()}>
          {!isRefetching && <RefreshCw aria-hidden="true" className="size-4" />}
          Try again
        </Button>
      </div>
    );
  }

  return (
    <div className="mx-auto grid max-w-md gap-8 lg:max-w-none lg:grid-cols-3 lg:items-stretch lg:gap-6">
      {packs.map((pack) => (
        <PackCard
          key={pack.id}
          pack={pack}
          onSelect={onSelect}
          processing={pendingPackId === pack.id}
          disabled={pendingPackId !== null && pendingPackId !== pack.id}
        />
      ))}
    </div>
  );
}
