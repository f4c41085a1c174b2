import { useQuery } from '@tanstack/react-query';
import * as z from 'zod';
import { apiFetch } from '../api-client';
import { queryKeys } from '../query-keys';

/** One credit pack as `GET /api/packs` returns it (amounts in USD cents, per-credit price in USD). */
export const packSchema = z.object({
  id: z.enum(['starter', 'popular', 'pro']),
  name: z.string(),
  credits: z.number().int().positive(),
  priceCents: z.number().int().nonnegative(),
  currency: z.literal('usd'),
  pricePerCredit: z.number().nonnegative(),
  popular: z.boolean(),
  features: z.array(z.string()),
});

/** A credit pack for sale. The server's list is the only source of prices. */
export type Pack = z.infer<typeof packSchema>;
/** Identifier of a credit pack. */
export type PackId = Pack['id'];

const packsResponseSchema = z.object({ packs: z.array(packSchema) });

/** react-query key of the pack list. */
export const packsQueryKey = queryKeys.packs;

/** Loads the credit packs from the public `GET /api/packs`. */
export async function fetchPacks(signal?: AbortSignal): Promise<Pack[]> {
  const body = await apiFetch<unknown>('/packs', { signal });
  return packsResponseSchema.parse(body).packs;
}

/** The credit packs, cached for five minutes (the API sends the same `max-age`). */
export function usePacks() {
  return useQuery({
    queryKey: packsQueryKey,
    queryFn: ({ signal }) => fetchPacks(signal),
    staleTime: 5 * 60_000,
  });
}
