import { decodeCursor, GALLERY_PAGE_SIZE, type TableKey } from './gallery';
import { variantFileName, type HeadshotVariant } from './headshot-variants';
import { versionFileName } from './headshot-versions';
import { isUlid } from './object-keys';
import type { Outfit } from './outfits';
import type { Background, Style } from './styles';
import { TeamError, teamMessage } from './team-errors';
import { payingTeam, type GenerationPayer } from './team-seats';
import type { Membership } from './teams';

/**
 * Sharing with a team and the team gallery (issue 37 §5-§6, docs/teams.md "Sharing and the team gallery"): what a
 * shared headshot is, which shares the gallery shows, how its files are named in the team's ZIP, and the gallery's
 * cursor. Pure: no I/O.
 */

/** One stored file of a shared headshot besides its square: results-bucket key, pixels, bytes. */
export interface SharedFile {
  key: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * A headshot a member shares with a team (`TEAM#<teamId>` / `SHARED#<sub>#<headshotId>`): who shared it, when, and
 * what the gallery needs of the picture, copied when it was shared so the gallery reads one partition. One per
 * headshot: the member shares either the headshot's own files or one of its versions (an edit's result, issue 36).
 */
export interface SharedHeadshot {
  teamId: string;
  sub: string;
  headshotId: string;
  /** The version shared (issue 36); absent: the headshot's own files. */
  versionId?: string;
  /** That version's 1-based place among the headshot's versions when it was shared (its files' `-v<k>`). */
  versionNumber?: number;
  /** ISO 8601 UTC; changes when the member shares another version of it. */
  sharedAt: string;
  style: Style;
  background: Background;
  outfit: Outfit;
  /** 0-5: its generation's slot (its file names' `<n>`). */
  slot: number;
  /** A transparent version's files are PNG (domain/headshot-versions.ts). */
  transparent: boolean;
  /** Results-bucket keys of the 1024² square and the WebP thumbnail. */
  imageKey: string;
  thumbnailKey: string;
  /** The 4:5 portrait and the original, when it was made with them. */
  variants?: { portrait: SharedFile; original: SharedFile };
}

/** Team headshots per page of `GET /api/teams/{teamId}/headshots`: as many as the personal gallery's. */
export const TEAM_GALLERY_PAGE_SIZE = GALLERY_PAGE_SIZE;

/**
 * Whether a share is in the team gallery: its member is in the team now and shared it since they (last) joined. A
 * share left behind by a removal that stopped part way (docs/teams.md "Members: lifecycle") is neither shown nor
 * counted, and is deleted by the next write that finds it.
 */
export function isCurrentShare(
  share: Pick<SharedHeadshot, 'sharedAt'>,
  member: { membership: Membership; joinedAt: string } | undefined,
): boolean {
  return member?.membership === 'joined' && share.sharedAt >= member.joinedAt;
}

/**
 * Refuses to share a headshot the team did not pay for: only a headshot of a team generation of this team (its
 * generation's `payer`, docs/teams.md "Money") keeps the team's brand look and belongs in its gallery.
 *
 * @throws {NotATeamHeadshotError} for a personal headshot or another team's
 */
export function assertTeamHeadshot(
  payer: GenerationPayer | undefined,
  team: { teamId: string; name: string },
): void {
  if (payingTeam(payer) !== team.teamId) throw new NotATeamHeadshotError(team.name);
}

// Characters a file or folder name cannot hold on Windows, macOS or Linux, and control characters.
// eslint-disable-next-line no-control-regex -- control characters are what a file name loses.
const UNSAFE_IN_NAMES = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

/** The ZIP folder of a member: their e-mail address, with what a file name cannot hold replaced by `_`. */
export function memberFolder(email: string): string {
  const folder = email.replace(UNSAFE_IN_NAMES, '_').replace(/^\.+/, '_');
  return folder === '' ? 'member' : folder;
}

/**
 * The name a shared headshot's file takes in the team's ZIP: `<member e-mail>/<the file's own name>`, the name it
 * downloads under from the member's gallery (`headshot-<style>-<background>-<n>[-v<k>]-<variant>.jpg|png`), so an
 * admin unpacks one folder per person (docs/product-spec.md §2 "Teams": 'Download ZIP' (a folder per member)).
 */
export function sharedFileName(
  share: Pick<SharedHeadshot, 'style' | 'background' | 'slot' | 'versionNumber' | 'transparent'>,
  email: string,
  variant: HeadshotVariant,
): string {
  const name =
    share.versionNumber === undefined
      ? variantFileName(share, variant)
      : versionFileName(share, share.versionNumber, variant, share.transparent);
  return `${memberFolder(email)}/${name}`;
}

const SUB = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Reads a team gallery cursor (domain/gallery.ts `encodeCursor` of a share's key) back, accepting only a key of the
 * team's partition whose sort key is `skPrefix` (`SHARED#`, or one member's `SHARED#<sub>#`) followed by what a
 * share's key holds there (`<sub>#<ULID>`, or the ULID), so no cursor starts a Query in another partition or at
 * another kind of item.
 *
 * @throws {InvalidCursorError} for anything else
 */
export function decodeSharedCursor(cursor: string, expected: { pk: string; skPrefix: string }): TableKey {
  return decodeCursor(cursor, expected, (tail) => {
    const parts = tail.split('#');
    const id = parts.pop()!;
    return isUlid(id) && parts.length <= 1 && parts.every((part) => SUB.test(part));
  });
}

/**
 * 404 `NOT_A_TEAM_HEADSHOT`: the caller's own headshot, but not one the team paid for (a personal one, or another
 * team's), so it cannot be shared with this team. Only its owner can get it: another person's headshot id is
 * answered as an unknown headshot.
 */
export class NotATeamHeadshotError extends TeamError {
  override readonly name = 'NotATeamHeadshotError';
  constructor(readonly teamName: string) {
    super('NOT_A_TEAM_HEADSHOT', teamMessage('NOT_A_TEAM_HEADSHOT', { team: teamName }));
  }
}
