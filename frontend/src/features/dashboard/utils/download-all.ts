import { zip, type Zippable } from 'fflate';
import type { HeadshotVariant, VariantLink } from '../../../lib/api/contracts';
import { fetchGalleryPage } from '../api/get-headshots';
import { fetchVersions } from '../api/get-versions';
import type { GalleryFilter } from './filters';

/** How many images are fetched at once while building the ZIP. */
const PARALLEL_FETCHES = 4;

function zipAsync(files: Zippable): Promise<Uint8Array> {
  // Level 0: JPEGs and PNGs are already compressed; storing them keeps the ZIP as fast as the downloads.
  return new Promise((resolve, reject) =>
    zip(files, { level: 0 }, (error, data) => (error ? reject(error) : resolve(data))),
  );
}

/**
 * The ZIP entry name for `fileName`: itself, or with ` (2)`, ` (3)`, … before the extension when another headshot
 * of the same style, background and place already took it (two generations with the same choices).
 */
export function uniqueEntryName(fileName: string, taken: Set<string>): string {
  let name = fileName;
  for (let n = 2; taken.has(name); n++) name = fileName.replace(/(\.\w+)$/, ` (${n})$1`);
  taken.add(name);
  return name;
}

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
  const files: Zippable = {};
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const { id, file, name } = wanted[next++]!;
      // The viewer's <img> may already have this URL in the HTTP cache from a no-CORS load, without
      // Access-Control-Allow-Origin (S3 sends no `Vary: Origin` to a request without Origin); presigned URLs are
      // reused for 5 minutes, so a cached copy would fail this CORS fetch. Go to the network.
      const response = await fetch(file.url, { cache: 'no-store' });
      if (!response.ok) throw new Error(`Could not fetch headshot ${id} (HTTP ${response.status})`);
      files[name] = new Uint8Array(await response.arrayBuffer());
      onProgress?.(++done, wanted.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_FETCHES, wanted.length) }, worker));

  const blob = new Blob([(await zipAsync(files)) as BlobPart], { type: 'application/zip' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `headshots-${filter}.zip`;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { headshots: items.length, versions, squareOnly };
}
