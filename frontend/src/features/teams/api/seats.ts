import { useInfiniteQuery } from '@tanstack/react-query';
import {
  seatCheckoutSessionSchema,
  teamPurchasesPageSchema,
  type TeamPurchasesPage,
} from '../../../../../functions/contracts/teams';
import { newIdempotencyKey } from '../../../lib/api/create-checkout-session';
import { apiCall } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import { teamPath } from './team-writes';

/** One seat purchase as the team's purchase history lists it. */
export type TeamPurchase = TeamPurchasesPage['items'][number];

/**
 * `POST /api/teams/{teamId}/checkout/sessions` `{seats}` (owner/admin): a Stripe Checkout Session for the seats; the
 * server prices them (decision 029). One `Idempotency-Key` per click, as a pack's purchase.
 * @returns the hosted page's `url`
 */
export async function startSeatCheckout(teamId: string, seats: number): Promise<string> {
  const session = await apiCall(`${teamPath(teamId)}/checkout/sessions`, seatCheckoutSessionSchema, {
    method: 'POST',
    body: { seats },
    headers: { 'Idempotency-Key': newIdempotencyKey() },
  });
  return session.url;
}

/** The team's purchases, newest first, 20 a page (`GET /api/teams/{teamId}/purchases`, owner/admin). */
export function useTeamPurchases(teamId: string, enabled: boolean) {
  const { status, user } = useAuth();
  return useInfiniteQuery({
    queryKey: queryKeys.teams.part(user?.sub ?? null, teamId, 'purchases'),
    queryFn: ({ pageParam, signal }) => {
      const query = pageParam ? `?${new URLSearchParams({ cursor: pageParam })}` : '';
      return apiCall(`${teamPath(teamId)}/purchases${query}`, teamPurchasesPageSchema, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: enabled && status === 'signedIn',
    staleTime: 30_000,
  });
}
