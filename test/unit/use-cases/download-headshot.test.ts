import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import { downloadHeadshot, type DownloadHeadshotPorts } from '../../../functions/use-cases/download-headshot';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';
import { FakeHeadshotVersions } from './fakes/headshot-versions';

const sub = 'user-1';
const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const variants = {
  portrait: { key: `results/${sub}/g1/portrait/0.jpg`, width: 1024, height: 1280, bytes: 1 },
  original: { key: `results/${sub}/g1/original/0.png`, width: 1536, height: 1536, bytes: 1 },
};

/** The download's ports on a user's headshots and their versions. */
function portsOf(
  headshots: Pick<DownloadHeadshotPorts, 'getHeadshot' | 'presignHeadshotDownload'>,
  versions = new FakeHeadshotVersions(() => undefined),
): DownloadHeadshotPorts {
  return {
    getHeadshot: headshots.getHeadshot,
    presignHeadshotDownload: headshots.presignHeadshotDownload,
    listHeadshotVersions: versions.listHeadshotVersions,
    presignVersionDownload: versions.presignVersionDownload,
  };
}

describe('downloadHeadshot: a file of a headshot, saved under its name', () => {
  it('presigns the asked file as an attachment, valid 15 minutes from now', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A', { variants });
    expect(await downloadHeadshot(sub, '01A', { variant: 'original' }, NOW, portsOf(headshots))).toEqual({
      url: `https://results.test/${variants.original.key}?attachment`,
      fileName: 'headshot-professional-office-1-original.png',
      expiresAt: '2026-01-01T12:15:00.000Z',
    });
    expect(
      (await downloadHeadshot(sub, '01A', { variant: 'square' }, NOW, portsOf(headshots))).fileName,
    ).toMatch(/-square\.jpg$/);
  });

  it('throws ItemNotFoundError for an unknown id and another user’s headshot alike', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed('someone-else', '01A', { variants });
    await expect(
      downloadHeadshot(sub, '01A', { variant: 'square' }, NOW, portsOf(headshots)),
    ).rejects.toThrow('Headshot not found.');
  });

  it('throws ItemNotFoundError for a portrait of a headshot made before there were portraits', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A');
    const refused = downloadHeadshot(sub, '01A', { variant: 'portrait' }, NOW, portsOf(headshots));
    await expect(refused).rejects.toBeInstanceOf(ItemNotFoundError);
    await expect(refused).rejects.toThrow(/made before portrait downloads existed/);
  });

  it('lets a signing failure through', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A');
    const ports = { ...headshots, presignHeadshotDownload: failing() };
    await expect(downloadHeadshot(sub, '01A', { variant: 'square' }, NOW, portsOf(ports))).rejects.toThrow(
      'port down',
    );
  });
});

describe('downloadHeadshot of a version (issue 36): each version in every format, named by its place', () => {
  /** Headshot 01A (slot 2) of `sub` with two versions; the second is transparent. */
  function world() {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A', { variants, slot: 2 });
    const versions = new FakeHeadshotVersions((owner, id) => headshots.records.get(`${owner}|${id}`));
    const versionVariants = (id: string, ext: string) => ({
      portrait: { key: `results/${sub}/g-${id}/portrait/0.${ext}`, width: 1024, height: 1280, bytes: 1 },
      original: { key: `results/${sub}/g-${id}/original/0.png`, width: 1024, height: 1280, bytes: 1 },
    });
    versions.seed(sub, '01A', '01V1', { variants: versionVariants('01V1', 'jpg') });
    versions.seed(sub, '01A', '01V2', {
      transparent: true,
      imageKey: `results/${sub}/g-01V2/0.png`,
      variants: versionVariants('01V2', 'png'),
    });
    return { headshots, versions, ports: portsOf(headshots, versions) };
  }

  it("presigns the asked version's file, named with -v<k>, valid 15 minutes", async () => {
    const { ports } = world();
    expect(await downloadHeadshot(sub, '01A', { variant: 'portrait', version: '01V1' }, NOW, ports)).toEqual({
      url: `https://results.test/results/${sub}/g-01V1/portrait/0.jpg?attachment`,
      fileName: 'headshot-professional-office-3-v1-portrait.jpg',
      expiresAt: '2026-01-01T12:15:00.000Z',
    });
  });

  it("names a transparent version's files .png in every format", async () => {
    const { ports } = world();
    for (const variant of ['square', 'portrait', 'original'] as const) {
      const download = await downloadHeadshot(sub, '01A', { variant, version: '01V2' }, NOW, ports);
      expect(download.fileName).toBe(`headshot-professional-office-3-v2-${variant}.png`);
    }
  });

  it('numbers versions by their place: after v1 is deleted, the next is v1', async () => {
    const { ports, versions } = world();
    await versions.deleteHeadshotVersion(sub, '01A', '01V1');
    const download = await downloadHeadshot(sub, '01A', { variant: 'square', version: '01V2' }, NOW, ports);
    expect(download.fileName).toBe('headshot-professional-office-3-v1-square.png');
  });

  it("answers 'Headshot not found.' for a version the headshot does not have, and another user's alike", async () => {
    const { ports, headshots, versions } = world();
    await expect(
      downloadHeadshot(sub, '01A', { variant: 'square', version: '01NOPE' }, NOW, ports),
    ).rejects.toThrow('Headshot not found.');
    headshots.seed('intruder', '01B');
    versions.seed('intruder', '01B', '01V9');
    await expect(
      downloadHeadshot(sub, '01A', { variant: 'square', version: '01V9' }, NOW, ports),
    ).rejects.toThrow('Headshot not found.');
    await expect(
      downloadHeadshot('intruder', '01A', { variant: 'square', version: '01V1' }, NOW, ports),
    ).rejects.toBeInstanceOf(ItemNotFoundError);
  });

  it('lets a failure to list the versions through', async () => {
    const { ports } = world();
    const down = { ...ports, listHeadshotVersions: failing() };
    await expect(
      downloadHeadshot(sub, '01A', { variant: 'square', version: '01V1' }, NOW, down),
    ).rejects.toThrow('port down');
  });
});
