import { useQuery } from '@tanstack/react-query';
import { creditPackSchema, packsSchema, type CreditPackView } from '../../../../functions/contracts/account';
import { apiFetch } from '../api-client';
import { queryKeys } from '../query-keys';

/** One credit pack as `GET /api/packs` returns it (the API's contract: amounts in USD cents, per-credit price in USD). */
export const packSchema = creditPackSchema;

/** A credit pack for sale. The server's list is the only source of prices. */
export type Pack = CreditPackView;
/** Identifier of a credit pack. */
export type PackId = Pack['id'];

/** react-query key of the pack list. */
export const packsQueryKey = queryKeys.packs;

/** Loads the credit packs from the public `GET /api/packs`. */
export async function fetchPacks(signal?: AbortSignal): Promise<readonly Pack[]> {
  const body = await apiFetch<unknown>('/packs', { signal });
  return packsSchema.parse(body).packs;
}

/** The credit packs, cached for five minutes (the API sends the same `max-age`). */
export function usePacks() {
  return useQuery({
    queryKey: packsQueryKey,
    queryFn: ({ signal }) => fetchPacks(signal),
    staleTime: 5 * 60_000,
  });
}
