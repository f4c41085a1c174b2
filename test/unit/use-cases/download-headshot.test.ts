import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import { downloadHeadshot } from '../../../functions/use-cases/download-headshot';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';

const sub = 'user-1';
const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const variants = {
  portrait: { key: `results/${sub}/g1/portrait/0.jpg`, width: 1024, height: 1280, bytes: 1 },
  original: { key: `results/${sub}/g1/original/0.png`, width: 1536, height: 1536, bytes: 1 },
};

describe('downloadHeadshot: a file of a headshot, saved under its name', () => {
  it('presigns the asked file as an attachment, valid 15 minutes from now', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A', { variants });
    expect(await downloadHeadshot(sub, '01A', 'original', NOW, headshots)).toEqual({
      url: `https://results.test/${variants.original.key}?attachment`,
      fileName: 'headshot-professional-office-1-original.png',
      expiresAt: '2026-01-01T12:15:00.000Z',
    });
    expect((await downloadHeadshot(sub, '01A', 'square', NOW, headshots)).fileName).toMatch(/-square\.jpg$/);
  });

  it('throws ItemNotFoundError for an unknown id and another user’s headshot alike', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed('someone-else', '01A', { variants });
    await expect(downloadHeadshot(sub, '01A', 'square', NOW, headshots)).rejects.toThrow(
      'Headshot not found.',
    );
  });

  it('throws ItemNotFoundError for a portrait of a headshot made before there were portraits', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A');
    const refused = downloadHeadshot(sub, '01A', 'portrait', NOW, headshots);
    await expect(refused).rejects.toBeInstanceOf(ItemNotFoundError);
    await expect(refused).rejects.toThrow(/made before portrait downloads existed/);
  });

  it('lets a signing failure through', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A');
    const ports = { ...headshots, presignHeadshotDownload: failing() };
    await expect(downloadHeadshot(sub, '01A', 'square', NOW, ports)).rejects.toThrow('port down');
  });
});
