import { galleryQuerySchema, type GalleryPage } from '../contracts/headshot';
import { listHeadshots } from '../use-cases/list-headshots';
import { callerOf, httpHandler, json, parseQuery } from './handler';

/**
 * `GET /api/headshots?filter=all|favorites|professional|business-casual|creative&sort=newest|best-match&cursor=`
 * (jwt) → 200 `{ items: [{ id, generationId, style, background, isFavorite, likeness, preview, createdAt,
 * thumbnailUrl, imageUrl }],
 * nextCursor: string | null, stats: { total, favorites } }`.
 *
 * The caller's headshots, newest first (or with `sort=best-match`, highest likeness first), 30 per page, filtered on the server (`filter` defaults to `all`). Pass
 * `nextCursor` back as `cursor` for the next page; `null` means this was the last one. `stats` counts the whole
 * gallery (not the filter): every headshot and the favorites among them, read from the gallery's counters (the first page's
 * one Query reads them with the page: adapters/headshots/pages.ts). `thumbnailUrl` (WebP ≤ 384 px) and
 * `imageUrl` (1024×1024 JPEG) are presigned GETs valid 15 minutes.
 *
 * Errors: 400 `VALIDATION_ERROR` for an unknown filter or an over-long cursor; 400 `INVALID_CURSOR` for a cursor
 * that was altered or was issued to another user (start again without one); 410 `ACCOUNT_DELETED` for a deleted
 * account's still-valid token.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const { filter, sort, cursor } = parseQuery(event, galleryQuerySchema);
  return json<GalleryPage>(200, await listHeadshots(sub, { filter, sort, cursor }));
});
