import { useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { purchasesPageSchema, type PurchasesPage } from '../../../../../functions/contracts/purchase';
import { useAuth } from '../../../lib/auth';

export type { Purchase, PurchasesPage } from '../../../../../functions/contracts/purchase';

/** Query key of the caller's purchase history (per `sub`). */
export const purchasesQueryKey = (sub: string | null) => ['purchases', sub] as const;

/**
 * `GET /api/purchases`: one page (20) of the caller's purchases, newest first.
 * @throws {ApiError} from the API, or `INVALID_RESPONSE` when the answer is not a purchases page
 */
export function fetchPurchases(cursor: string | null, signal?: AbortSignal): Promise<PurchasesPage> {
  const query = cursor ? `?${new URLSearchParams({ cursor })}` : '';
  return apiCall(`/purchases${query}`, purchasesPageSchema, { signal });
}

/** The caller's purchase history as an infinite list ({@link fetchPurchases}; `fetchNextPage` follows the cursor). */
export function usePurchases() {
  const { status, user } = useAuth();
  return useInfiniteQuery({
    queryKey: purchasesQueryKey(user?.sub ?? null),
    queryFn: ({ pageParam, signal }) => fetchPurchases(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: status === 'signedIn',
    staleTime: 60_000,
  });
}
