import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import { deleteHeadshotVersion } from '../../../functions/use-cases/delete-headshot-version';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';
import { FakeHeadshotVersions } from './fakes/headshot-versions';

const SUB = 'user-1';

/** The deletion's ports on the fake versions, with nothing shared with a team. */
const portsOf = (versions: FakeHeadshotVersions) => ({
  withdrawShares: async () => 0,
  deleteHeadshotVersion: versions.deleteHeadshotVersion,
});

/** Headshot 01A of SUB with versions 01V1 (with a portrait and an original) and 01V2. */
function world() {
  const headshots = new FakeHeadshots();
  headshots.seed(SUB, '01A');
  const versions = new FakeHeadshotVersions((sub, id) => headshots.records.get(`${sub}|${id}`));
  const file = (key: string) => ({ key, width: 1024, height: 1280, bytes: 1 });
  versions.seed(SUB, '01A', '01V1', {
    variants: {
      portrait: file(`results/${SUB}/g-01V1/portrait/0.jpg`),
      original: file(`results/${SUB}/g-01V1/original/0.png`),
    },
  });
  versions.seed(SUB, '01A', '01V2');
  const root = () => headshots.records.get(`${SUB}|01A`)!;
  return { headshots, versions, root };
}

describe('deleteHeadshotVersion', () => {
  it("deletes the version's files and item, and the headshot's versionCount goes down", async () => {
    const { versions, root } = world();
    expect(root().versionCount).toBe(2);
    await deleteHeadshotVersion(SUB, '01A', '01V1', portsOf(versions));
    expect(versions.deletedKeys.sort()).toEqual(
      [
        `results/${SUB}/g-01V1/0.jpg`,
        `results/${SUB}/g-01V1/thumbnails/0.webp`,
        `results/${SUB}/g-01V1/portrait/0.jpg`,
        `results/${SUB}/g-01V1/original/0.png`,
      ].sort(),
    );
    expect((await versions.listHeadshotVersions(SUB, '01A')).map((v) => v.id)).toEqual(['01V2']);
    expect(root().versionCount).toBe(1);
  });

  it("answers 'Headshot not found.' for an unknown version, another headshot's and another user's alike", async () => {
    const { versions, headshots } = world();
    headshots.seed(SUB, '01B');
    await expect(deleteHeadshotVersion(SUB, '01A', '01NOPE', portsOf(versions))).rejects.toThrow(
      'Headshot not found.',
    );
    await expect(deleteHeadshotVersion(SUB, '01B', '01V1', portsOf(versions))).rejects.toBeInstanceOf(
      ItemNotFoundError,
    );
    await expect(deleteHeadshotVersion('intruder', '01A', '01V1', portsOf(versions))).rejects.toBeInstanceOf(
      ItemNotFoundError,
    );
    expect(versions.deletedKeys).toEqual([]);
    expect(versions.records.size).toBe(2);
  });

  it('answers not found for a version deleted twice', async () => {
    const { versions } = world();
    await deleteHeadshotVersion(SUB, '01A', '01V2', portsOf(versions));
    await expect(deleteHeadshotVersion(SUB, '01A', '01V2', portsOf(versions))).rejects.toBeInstanceOf(
      ItemNotFoundError,
    );
  });

  it('lets a failing deletion through', async () => {
    await expect(
      deleteHeadshotVersion(SUB, '01A', '01V1', {
        withdrawShares: async () => 0,
        deleteHeadshotVersion: failing(new Error('bucket down')),
      }),
    ).rejects.toThrow('bucket down');
  });
});
