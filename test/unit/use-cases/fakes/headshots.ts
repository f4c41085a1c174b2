import type { HeadshotRecord } from '../../../../functions/adapters/headshots/records';
import { storedVariants, type HeadshotUrls } from '../../../../functions/adapters/headshots/urls';
import type { GalleryFilter, GallerySort } from '../../../../functions/domain/gallery';
import { variantFileName, type HeadshotVariant } from '../../../../functions/domain/headshot-variants';

/** A test URL for a results-bucket key: `https://results.test/<key>?<kind>`. */
const urlOf = (key: string, kind: string) => `https://results.test/${key}?${kind}`;

/**
 * A user's headshots in memory (adapters/headshots/{records,changes,pages,urls}.ts): records per user, the
 * favorite's change, the deletion of a headshot with its files, the gallery's pages (newest first, or by likeness,
 * filtered, with the whole gallery's totals), and URLs that say which key they sign.
 */
export class FakeHeadshots {
  readonly records = new Map<string, HeadshotRecord>();
  /** Results-bucket keys deleted, in order. */
  readonly deletedKeys: string[] = [];

  /** A headshot of `sub` (`id` sorts like a ULID: a larger one is newer). */
  seed(sub: string, id: string, fields: Partial<HeadshotRecord> = {}): HeadshotRecord {
    const record: HeadshotRecord = {
      id,
      userId: sub,
      generationId: 'g1',
      slot: 0,
      style: 'professional',
      background: 'office',
      imageKey: `results/${sub}/g1/${id}.jpg`,
      thumbnailKey: `results/${sub}/g1/thumbnails/${id}.webp`,
      isFavorite: false,
      creditsUsed: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      ...fields,
    };
    this.records.set(`${sub}|${id}`, record);
    return record;
  }

  private of(sub: string): HeadshotRecord[] {
    return [...this.records.values()]
      .filter((h) => h.userId === sub)
      .sort((a, b) => b.id.localeCompare(a.id));
  }

  readonly getHeadshot = async (sub: string, id: string) => {
    const record = this.records.get(`${sub}|${id}`);
    return record ? structuredClone(record) : undefined;
  };

  readonly setFavorite = async (sub: string, id: string, isFavorite: boolean) => {
    const record = this.records.get(`${sub}|${id}`);
    if (!record) return undefined;
    record.isFavorite = isFavorite;
    return structuredClone(record);
  };

  readonly deleteHeadshot = async (sub: string, id: string) => {
    const record = this.records.get(`${sub}|${id}`);
    if (!record) return false;
    this.deletedKeys.push(...storedVariants(record).map((v) => v.key), record.thumbnailKey);
    this.records.delete(`${sub}|${id}`);
    return true;
  };

  /** The whole filtered gallery as one page (the fake never pages). */
  readonly readGalleryPage = async (
    sub: string,
    query: { filter: GalleryFilter; sort: GallerySort; cursor?: string | undefined },
  ) => {
    const all = this.of(sub);
    const items = all.filter(
      (h) =>
        query.filter === 'all' || (query.filter === 'favorites' ? h.isFavorite : h.style === query.filter),
    );
    if (query.sort === 'best-match') items.sort((a, b) => (b.likeness ?? -1) - (a.likeness ?? -1));
    return {
      items: structuredClone(items),
      nextCursor: null,
      stats: { total: all.length, favorites: all.filter((h) => h.isFavorite).length },
    };
  };

  readonly headshotUrls = async (headshot: HeadshotRecord): Promise<HeadshotUrls> => ({
    thumbnailUrl: urlOf(headshot.thumbnailKey, 'inline'),
    imageUrl: urlOf(headshot.imageKey, 'inline'),
    downloadUrl: urlOf(headshot.imageKey, 'attachment'),
    variants: storedVariants(headshot).map(({ variant, key, width, height }) => ({
      variant,
      width,
      height,
      fileName: variantFileName(headshot, variant),
      url: urlOf(key, 'inline'),
    })),
  });

  readonly presignHeadshotDownload = async (
    headshot: HeadshotRecord,
    variant: HeadshotVariant = 'square',
  ) => {
    const stored = storedVariants(headshot).find((v) => v.variant === variant);
    return stored
      ? { url: urlOf(stored.key, 'attachment'), fileName: variantFileName(headshot, variant) }
      : undefined;
  };
}
