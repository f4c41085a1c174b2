import type { Health } from '../contracts';
import { httpHandler, json } from './handler';

/** `GET /api/health` (public) → 200 `{ status: 'ok', time }` (ISO time). For load balancers and the local stack. */
export const handler = httpHandler(async () =>
  json<Health>(200, { status: 'ok', time: new Date().toISOString() }),
);
