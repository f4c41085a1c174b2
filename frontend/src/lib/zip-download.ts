import { zip, type Zippable } from 'fflate';

/**
 * ZIPs of headshots built in the browser (docs/product-spec.md §2 "Downloads"): the files are fetched from their
 * presigned URLs, stored (not compressed) with fflate and saved through an object URL. The dashboard's 'Download all'
 * and a team's 'Download ZIP' (docs/teams.md "Routes": the team gallery's ZIP) both build theirs here.
 */

/** How many images are fetched at once while building the ZIP. */
const PARALLEL_FETCHES = 4;

/** One file to put in a ZIP: where to fetch it and its entry's name (`folder/name.jpg` makes a folder). */
export interface ZipEntry {
  url: string;
  name: string;
}

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

/**
 * Fetches every entry (four at a time) and saves them as one ZIP named `zipName`.
 *
 * @param onProgress called with (files fetched, total) as the ZIP fills
 * @throws {Error} when a file cannot be fetched (nothing is saved then)
 */
export async function saveZip(
  zipName: string,
  entries: readonly ZipEntry[],
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const files: Zippable = {};
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < entries.length) {
      const { url, name } = entries[next++]!;
      // The viewer's <img> may already have this URL in the HTTP cache from a no-CORS load, without
      // Access-Control-Allow-Origin (S3 sends no `Vary: Origin` to a request without Origin); presigned URLs are
      // reused for 5 minutes, so a cached copy would fail this CORS fetch. Go to the network.
      const response = await fetch(url, { cache: 'no-store' });
      if (!response.ok) throw new Error(`Could not fetch ${name} (HTTP ${response.status})`);
      files[name] = new Uint8Array(await response.arrayBuffer());
      onProgress?.(++done, entries.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_FETCHES, entries.length) }, worker));

  const blob = new Blob([(await zipAsync(files)) as BlobPart], { type: 'application/zip' });
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = zipName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
