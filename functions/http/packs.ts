import type { Packs } from '../contracts';
import { CREDIT_PACKS } from '../domain/packs';
import { httpHandler, json } from './handler';

/** `GET /api/packs` (public) → 200 `{ packs: CreditPack[] }`, amounts in USD cents. Cacheable for 5 minutes. */
export const handler = httpHandler(async () =>
  json<Packs>(200, { packs: CREDIT_PACKS }, { 'cache-control': 'public, max-age=300' }),
);
