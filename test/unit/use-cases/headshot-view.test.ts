import { describe, expect, it } from 'vitest';
import { headshotViewer } from '../../../functions/use-cases/headshot-view';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';

const sub = 'user-1';

describe('headshotViewer: the API view of a headshot', () => {
  it('shows presigned URLs, never storage keys, with the square’s file name', async () => {
    const headshots = new FakeHeadshots();
    const record = headshots.seed(sub, '01A', { slot: 2, likeness: 87, isFavorite: true });
    const view = await headshotViewer(headshots)(record);
    expect(view).toMatchObject({
      id: '01A',
      generationId: 'g1',
      slot: 2,
      isFavorite: true,
      likeness: 87,
      preview: false,
      thumbnailUrl: `https://results.test/${record.thumbnailKey}?inline`,
      imageUrl: `https://results.test/${record.imageKey}?inline`,
      downloadUrl: `https://results.test/${record.imageKey}?attachment`,
      fileName: 'headshot-professional-office-3-square.jpg',
    });
    expect(view).not.toHaveProperty('imageKey');
    expect(view.variants.map((v) => v.variant)).toEqual(['square']);
  });

  it('marks the offline provider’s composites as previews, and an unmeasured likeness as null', async () => {
    const headshots = new FakeHeadshots();
    const record = headshots.seed(sub, '01B', { provider: 'local' });
    expect(await headshotViewer(headshots)(record)).toMatchObject({ preview: true, likeness: null });
  });

  it('shows the outfit, and own clothing for a headshot made before outfits', async () => {
    const headshots = new FakeHeadshots();
    const viewer = headshotViewer(headshots);
    expect((await viewer(headshots.seed(sub, '01D', { outfit: 'shirt' }))).outfit).toBe('shirt');
    expect((await viewer(headshots.seed(sub, '01E'))).outfit).toBe('own-clothing');
  });

  it('names the team that paid a team headshot, and no team on a personal one', async () => {
    const headshots = new FakeHeadshots();
    const viewer = headshotViewer(headshots);
    expect((await viewer(headshots.seed(sub, '01F', { teamId: 'team-1' }))).teamId).toBe('team-1');
    expect(await viewer(headshots.seed(sub, '01G'))).not.toHaveProperty('teamId');
  });

  it('fails as the URL signer fails: no view with a missing image address', async () => {
    const headshots = new FakeHeadshots();
    const record = headshots.seed(sub, '01C');
    const outage = new Error('credentials expired');
    await expect(headshotViewer({ headshotUrls: failing(outage) })(record)).rejects.toBe(outage);
  });
});
