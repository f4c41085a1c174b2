import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import {
  listHeadshotVersions,
  savedVersionViews,
  type ListHeadshotVersionsPorts,
} from '../../../functions/use-cases/list-headshot-versions';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';
import { FakeHeadshotVersions } from './fakes/headshot-versions';

const SUB = 'user-1';

/** Headshot 01A (slot 0) of SUB, and the ports on it and its versions. */
function world() {
  const headshots = new FakeHeadshots();
  headshots.seed(SUB, '01A', { background: 'studio' });
  const versions = new FakeHeadshotVersions((sub, id) => headshots.records.get(`${sub}|${id}`));
  const ports: ListHeadshotVersionsPorts = {
    getHeadshot: headshots.getHeadshot,
    listHeadshotVersions: versions.listHeadshotVersions,
    versionUrls: versions.versionUrls,
  };
  return { headshots, versions, ports };
}

describe('listHeadshotVersions', () => {
  it('answers the versions oldest first, each with its edit, source, URLs and files named v1, v2', async () => {
    const { versions, ports } = world();
    versions.seed(SUB, '01A', '01V2', {
      edit: { kind: 'background', background: { type: 'transparent' } },
      transparent: true,
      sourceVersionId: '01V1',
      likeness: 88,
      provider: 'local',
    });
    versions.seed(SUB, '01A', '01V1', { edit: { kind: 'upscale' }, likeness: 91, provider: 'openai' });
    const { versions: answered } = await listHeadshotVersions(SUB, '01A', ports);
    expect(answered.map((v) => v.id)).toEqual(['01V1', '01V2']);
    expect(answered[0]).toMatchObject({
      headshotId: '01A',
      sourceVersionId: null,
      generationId: 'g-01V1',
      edit: { kind: 'upscale' },
      likeness: 91,
      preview: false,
      transparent: false,
      imageUrl: `https://results.test/results/${SUB}/g-01V1/0.jpg?inline`,
      thumbnailUrl: `https://results.test/results/${SUB}/g-01V1/thumbnails/0.webp?inline`,
      variants: [{ variant: 'square', fileName: 'headshot-professional-studio-1-v1-square.jpg' }],
    });
    expect(answered[1]).toMatchObject({ sourceVersionId: '01V1', preview: true, transparent: true });
    expect(answered[1]!.variants[0]!.fileName).toBe('headshot-professional-studio-1-v2-square.png');
    expect(answered[0]).not.toHaveProperty('imageKey');
  });

  it('answers no versions for a headshot never edited', async () => {
    const { ports } = world();
    expect(await listHeadshotVersions(SUB, '01A', ports)).toEqual({ versions: [] });
  });

  it("answers 'Headshot not found.' for an unknown headshot and another user's alike", async () => {
    const { ports, versions } = world();
    versions.seed(SUB, '01A', '01V1');
    await expect(listHeadshotVersions(SUB, '01Z', ports)).rejects.toThrow('Headshot not found.');
    await expect(listHeadshotVersions('intruder', '01A', ports)).rejects.toBeInstanceOf(ItemNotFoundError);
  });

  it('lets a failing table or signer through', async () => {
    const { ports, versions } = world();
    versions.seed(SUB, '01A', '01V1');
    await expect(
      listHeadshotVersions(SUB, '01A', { ...ports, listHeadshotVersions: failing(new Error('table down')) }),
    ).rejects.toThrow('table down');
    await expect(
      listHeadshotVersions(SUB, '01A', { ...ports, versionUrls: failing(new Error('signer down')) }),
    ).rejects.toThrow('signer down');
  });
});

describe('savedVersionViews: the versions an edit generation saved', () => {
  it('answers the saved ones, named by their place among all the versions', async () => {
    const { versions, ports } = world();
    versions.seed(SUB, '01A', '01V1');
    versions.seed(SUB, '01A', '01V2');
    const views = await savedVersionViews(SUB, '01A', ['01V2'], ports);
    expect(views.map((v) => v.id)).toEqual(['01V2']);
    expect(views[0]!.variants[0]!.fileName).toBe('headshot-professional-studio-1-v2-square.jpg');
  });

  it('answers none before anything is saved, and none once the headshot is gone', async () => {
    const { versions, headshots, ports } = world();
    versions.seed(SUB, '01A', '01V1');
    const listing = { ...ports, listHeadshotVersions: failing(new Error('not asked')) };
    expect(await savedVersionViews(SUB, '01A', [], listing)).toEqual([]);
    await headshots.deleteHeadshot(SUB, '01A');
    expect(await savedVersionViews(SUB, '01A', ['01V1'], ports)).toEqual([]);
  });
});
