import { versionUrls } from '../adapters/headshots/urls';
import type { TeamHeadshot } from '../contracts/teams';
import { sharedFileName, type SharedHeadshot } from '../domain/team-shares';

/**
 * The ONE API view of a headshot shared with a team (contracts/teams.ts `teamHeadshotSchema`), for the share's answer
 * and the team gallery: who shared it, and its files as presigned GETs valid at least 15 minutes
 * (adapters/headshots/urls.ts), each named `<member e-mail>/<file name>` for the team's ZIP. Storage keys stay on the
 * server.
 */

/** What the view needs: the URL signer of a headshot's (or a version's) files. */
export interface TeamHeadshotViewPorts {
  shareUrls: typeof versionUrls;
}

export const teamHeadshotViewAdapters: TeamHeadshotViewPorts = { shareUrls: versionUrls };

/** The view of `share`, made by the member whose address is `email`. */
export async function teamHeadshotView(
  share: SharedHeadshot,
  email: string,
  ports: TeamHeadshotViewPorts = teamHeadshotViewAdapters,
): Promise<TeamHeadshot> {
  const urls = await ports.shareUrls(share, (variant) => sharedFileName(share, email, variant));
  return {
    headshotId: share.headshotId,
    ...(share.versionId === undefined ? {} : { versionId: share.versionId }),
    member: { sub: share.sub, email },
    sharedAt: share.sharedAt,
    style: share.style,
    background: share.background,
    outfit: share.outfit,
    thumbnailUrl: urls.thumbnailUrl,
    imageUrl: urls.imageUrl,
    variants: urls.variants,
  };
}
