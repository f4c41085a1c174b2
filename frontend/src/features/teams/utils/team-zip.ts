import type { TeamHeadshot } from '../../../lib/api/team-shares';
import { uniqueEntryName, type ZipEntry } from '../../../lib/zip-download';

/**
 * The entries of a team's 'Download ZIP' (docs/teams.md "Routes"): every file of every shared headshot under the
 * API's own name, `<member folder>/<the headshot's file name>` (a folder per member), numbered ' (2)' when two are
 * alike, members' folders in the gallery's order.
 */
export function teamZipEntries(items: readonly TeamHeadshot[]): ZipEntry[] {
  const taken = new Set<string>();
  return items.flatMap((item) =>
    item.variants.map((file) => ({ url: file.url, name: uniqueEntryName(file.fileName, taken) })),
  );
}

/** `Acme Corp.` → `acme-corp-headshots.zip`: the team's name as a file name. */
export function teamZipName(teamName: string): string {
  const slug = teamName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'team'}-headshots.zip`;
}
