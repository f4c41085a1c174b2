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
  /** Where a pack's button goes when tapped before the app has loaded ({@link PackCard}'s `href`). */
  hrefOf?: (packId: PackId) => string;
}

/**
 * The three credit packs from `GET /api/packs`, with a loading skeleton and an error state with retry. Used by the
 * landing page's pricing section and the /pricing page. On a page rendered at build time the packs come with the
 * page (lib/query-client.tsx, prerendered queries) and are refreshed from the API once the app runs.
 */
export function PackGrid({ onSelect, pendingPackId = null, hrefOf }: PackGridProps) {
  const query = usePacks();
  const packs = query.data;
  if (query.isPending) return <PackGridSkeleton />;
  // Packs already shown (those the page was rendered with at build time) stay when refreshing them fails.
  if (!packs) return <PacksError query={query} />;

  return (
    <div className="mx-auto grid max-w-md gap-8 lg:max-w-none lg:grid-cols-3 lg:items-stretch lg:gap-6">
      {packs.map((pack) => (
        <PackCard
          key={pack.id}
          pack={pack}
          onSelect={onSelect}
          processing={pendingPackId === pack.id}
          href={hrefOf?.(pack.id)}
          disabled={pendingPackId !== null && pendingPackId !== pack.id}
        />
      ))}
    </div>
  );
}

/**
 * The packs could not be loaded: the reason and a retry. Its own component, so the grid does not read the query's
 * refetching state: react-query re-renders a component only for the fields it read, and the grid then stays as it is
 * while the packs of a page rendered at build time are refreshed in the background.
 */
function PacksError({ query }: { query: ReturnType<typeof usePacks> }) {
  const { error, refetch, isRefetching } = query;
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
