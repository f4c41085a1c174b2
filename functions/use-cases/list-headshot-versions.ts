import { getHeadshot, type HeadshotRecord } from '../adapters/headshots/records';
import { versionUrls } from '../adapters/headshots/urls';
import * as versions from '../adapters/headshots/versions';
import type { HeadshotVersionRecord } from '../adapters/headshots/versions';
import type { HeadshotVersion, HeadshotVersions } from '../contracts/edits';
import { LOCAL_PROVIDER } from '../domain/headshot-images';
import { versionFileName } from '../domain/headshot-versions';
import { headshotNotFound } from './headshot-view';

/** What showing a headshot's versions needs from the outside world: the root, its versions, presigned URLs. */
export interface ListHeadshotVersionsPorts {
  getHeadshot: typeof getHeadshot;
  listHeadshotVersions: typeof versions.listHeadshotVersions;
  versionUrls: typeof versionUrls;
}

const adapters: ListHeadshotVersionsPorts = {
  getHeadshot,
  listHeadshotVersions: versions.listHeadshotVersions,
  versionUrls,
};

/**
 * The API view of one version (functions/contracts/edits.ts `HeadshotVersion`): storage keys stay on the server,
 * images are presigned GETs, `preview` marks the offline provider's, and each file is named after its headshot and
 * its place `k` (1-based, oldest first: domain/headshot-versions.ts `versionFileName`).
 */
export async function toVersionView(
  root: Pick<HeadshotRecord, 'style' | 'background' | 'slot'>,
  version: HeadshotVersionRecord,
  k: number,
  ports: Pick<ListHeadshotVersionsPorts, 'versionUrls'> = adapters,
): Promise<HeadshotVersion> {
  const urls = await ports.versionUrls(version, (variant) =>
    versionFileName(root, k, variant, version.transparent),
  );
  return {
    id: version.id,
    headshotId: version.headshotId,
    sourceVersionId: version.sourceVersionId ?? null,
    generationId: version.generationId,
    edit: version.edit,
    likeness: version.likeness ?? null,
    preview: version.provider === LOCAL_PROVIDER,
    transparent: version.transparent === true,
    createdAt: version.createdAt,
    ...urls,
  };
}

/**
 * `GET /api/headshots/{id}/versions`: the versions of one of the caller's headshots, oldest first (the original, the
 * gallery's headshot itself, is not among them; docs/product-spec.md §2 "Edit a headshot").
 *
 * @throws {ItemNotFoundError} 'Headshot not found.' for an unknown id and another user's headshot alike
 */
export async function listHeadshotVersions(
  sub: string,
  headshotId: string,
  ports: ListHeadshotVersionsPorts = adapters,
): Promise<HeadshotVersions> {
  const [root, found] = await Promise.all([
    ports.getHeadshot(sub, headshotId),
    ports.listHeadshotVersions(sub, headshotId),
  ]);
  if (!root) throw headshotNotFound();
  return {
    versions: await Promise.all(found.map((version, i) => toVersionView(root, version, i + 1, ports))),
  };
}

/**
 * The views of the versions an edit's generation saved (`GET /api/generations/{id}` `versions`, issue 36): of the
 * edited headshot's versions, those whose ids its slots hold, each named by its place among all of them. None while
 * nothing is saved, and none once the headshot is gone.
 */
export async function savedVersionViews(
  sub: string,
  headshotId: string,
  versionIds: readonly string[],
  ports: ListHeadshotVersionsPorts = adapters,
): Promise<HeadshotVersion[]> {
  if (versionIds.length === 0) return [];
  const [root, found] = await Promise.all([
    ports.getHeadshot(sub, headshotId),
    ports.listHeadshotVersions(sub, headshotId),
  ]);
  if (!root) return [];
  return Promise.all(
    found.flatMap((version, i) =>
      versionIds.includes(version.id) ? [toVersionView(root, version, i + 1, ports)] : [],
    ),
  );
}
