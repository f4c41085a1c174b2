import type { HeadshotVariant, VariantLink } from '../../../lib/api/contracts';
import { saveZip, uniqueEntryName } from '../../../lib/zip-download';
import { fetchGalleryPage } from '../api/get-headshots';
import { fetchVersions } from '../api/get-versions';
import type { GalleryFilter } from './filters';

export { uniqueEntryName };

/** What {@link downloadAllAsZip} put in the ZIP. */
export interface ZipSummary {
  /** Headshots the ZIP holds (0: nothing matched, no file is saved). */
  headshots: number;
  /** Versions of those headshots (edits' results, issue 36) the ZIP holds besides them. */
  versions: number;
  /**
   * Of those, the ones that lack a file the customer picked (made before portraits and originals existed: only their
   * square), so the result can say so only to someone who has such headshots.
   */
  squareOnly: number;
}

/** A gallery item as the ZIP reads it: its files, and how many versions it has. */
interface ZippedHeadshot {
  id: string;
  variants: VariantLink[];
  versionCount?: number | undefined;
}

/** One file to fetch into the ZIP, under its entry name. */
interface WantedFile {
  id: string;
  file: VariantLink;
  name: string;
}

/**
 * The files to zip of `items`: of each headshot the picked variants, then the same of each of its versions
 * (`GET /api/headshots/{id}/versions`, asked only of headshots with a `versionCount`), oldest first. A version's
 * files are named `…-<n>-v<k>-<variant>.<ext>` by the API, so they sort right after their headshot's.
 */
async function wantedFiles(
  items: readonly ZippedHeadshot[],
  variants: readonly HeadshotVariant[],
): Promise<{ wanted: WantedFile[]; versions: number }> {
  const taken = new Set<string>();
  const wanted: WantedFile[] = [];
  let versions = 0;
  const add = (id: string, files: readonly VariantLink[]) => {
    for (const file of files.filter((f) => variants.includes(f.variant))) {
      wanted.push({ id, file, name: uniqueEntryName(file.fileName, taken) });
    }
  };
  for (const item of items) {
    add(item.id, item.variants);
    if (!item.versionCount) continue;
    for (const version of await fetchVersions(item.id)) {
      add(version.id, version.variants);
      versions++;
    }
  }
  return { wanted, versions };
}

/**
 * 'Download all': every headshot of the current filter (all pages, newest first) as one ZIP, `headshots-<filter>.zip`,
 * with the files the customer picked of each (`variants`: the square, the 4:5 portrait, the original PNG; a headshot
 * made before portraits existed gives only its square) and of each of its versions (issue 36: a favorite's versions
 * are in the favorites' ZIP), each entry named as it would download alone
 * (`headshot-<style>-<background>-<n>[-v<k>]-<variant>.jpg|png`, numbered when two are alike), built in the browser
 * with fflate and saved through an object URL.
 *
 * @param variants the files wanted of each headshot (at least one)
 * @param onProgress called with (files fetched, total) as the ZIP fills
 * @returns how many headshots (and versions) the ZIP holds, and how many lack a picked file ({@link ZipSummary})
 * @throws {Error} when a page, a headshot's versions or an image cannot be fetched (nothing is saved then)
 */
export async function downloadAllAsZip(
  filter: GalleryFilter,
  variants: readonly HeadshotVariant[],
  onProgress?: (done: number, total: number) => void,
): Promise<ZipSummary> {
  const items: ZippedHeadshot[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchGalleryPage(filter, cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  if (items.length === 0) return { headshots: 0, versions: 0, squareOnly: 0 };
  const squareOnly = items.filter((item) =>
    variants.some((variant) => !item.variants.some((file) => file.variant === variant)),
  ).length;

  const { wanted, versions } = await wantedFiles(items, variants);
  await saveZip(
    `headshots-${filter}.zip`,
    wanted.map(({ file, name }) => ({ url: file.url, name })),
    onProgress,
  );
  return { headshots: items.length, versions, squareOnly };
}
