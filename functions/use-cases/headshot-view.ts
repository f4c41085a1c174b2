import type { HeadshotRecord } from '../adapters/headshots/records';
import { headshotUrls, type HeadshotUrls } from '../adapters/headshots/urls';
import type { Headshot } from '../contracts';
import { ItemNotFoundError } from '../domain/errors';
import { LOCAL_PROVIDER } from '../domain/headshot-images';
import { variantFileName } from '../domain/headshot-variants';
import { DEFAULT_OUTFIT } from '../domain/outfits';

/*
 * The ONE API view of a headshot (functions/contracts `Headshot`), shared by the use cases that answer with
 * headshots: the gallery, a favorite's change, a generation's results.
 */

/** What a headshot's view needs from the outside world: its images' presigned URLs. */
export interface HeadshotViewPorts {
  headshotUrls: (headshot: HeadshotRecord) => Promise<HeadshotUrls>;
}

/** The real adapters of {@link HeadshotViewPorts} (the ports of the use cases that show headshots extend them). */
export const headshotViewAdapters: HeadshotViewPorts = { headshotUrls };

/** The answer for a missing headshot and another user's alike (never says which): 404 `NOT_FOUND`. */
export const headshotNotFound = () => new ItemNotFoundError('Headshot not found.');

/**
 * The view of headshot records with `ports`: storage keys stay on the server, the images are presigned GETs valid
 * at least 15 minutes (adapters/headshots/urls.ts), `preview` marks the offline provider's composites, and
 * `fileName` is the name the square downloads under (domain/headshot-variants.ts).
 */
export function headshotViewer(
  ports: HeadshotViewPorts = headshotViewAdapters,
): (headshot: HeadshotRecord) => Promise<Headshot> {
  return async (headshot) => ({
    id: headshot.id,
    generationId: headshot.generationId,
    slot: headshot.slot,
    style: headshot.style,
    background: headshot.background,
    outfit: headshot.outfit ?? DEFAULT_OUTFIT,
    isFavorite: headshot.isFavorite === true,
    likeness: headshot.likeness ?? null,
    preview: headshot.provider === LOCAL_PROVIDER,
    createdAt: headshot.createdAt,
    ...(await ports.headshotUrls(headshot)),
    fileName: variantFileName(headshot, 'square'),
    versionCount: headshot.versionCount ?? 0,
    ...(headshot.teamId === undefined ? {} : { teamId: headshot.teamId }),
  });
}

/** The API view of a headshot record with the real URL signer (see {@link headshotViewer}). */
export const toHeadshot = headshotViewer();
