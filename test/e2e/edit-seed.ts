import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { inject } from 'vitest';
import { putObject } from '../../functions/adapters/storage';
import {
  headshotImageKey,
  headshotThumbnailKey,
  headshotVariantKey,
  uploadKey,
} from '../../functions/domain/object-keys';
import { fixturePhoto } from '../helpers/generation';
import { generationItem } from '../helpers/generation-items';
import { batchPutItems, headshotSeedItem } from '../helpers/headshot-items';
import { signedInSub } from './seed';

/*
 * A finished headshot to edit in the browser, written straight to the e2e stack's table and buckets (as
 * test/integration/headshot-edits.test.ts seeds one): the customer's reference photos in the uploads bucket, the
 * generation item that names them, and one headshot with its four files at their real sizes. No generation runs;
 * the edits that follow run for real through the workflow and the offline provider, likeness-checked against those
 * photos.
 */

/** The reference photos of the seeded customer: one person (test/fixtures/photos). */
const REFERENCES = ['obama.jpg', 'obama2.jpg', 'obama3.jpg'];

/**
 * Seeds a headshot for the account signed in on `page` whose image is `face` (a fixture photo on the 4:5 canvas):
 * one of the customer's own photos (default) passes the likeness check; someone else's (`biden.jpg`) does not, so an
 * edit of it is refused and refunded. The page shows it once it reads the gallery again (a reload). Spends no
 * credit: the balance stays what the account had.
 *
 * @returns the headshot's id
 */
export async function seedEditableHeadshot(page: Page, face = 'obama.jpg'): Promise<string> {
  Object.assign(process.env, inject('e2eStack').env);
  const sub = await signedInSub(page);
  const batch = ulid();
  const referenceKeys = await Promise.all(
    REFERENCES.map(async (name, n) => {
      const key = uploadKey(sub, batch, n);
      await putObject('uploads', key, fixturePhoto(name).bytes, 'image/jpeg');
      return key;
    }),
  );
  const { id: generationId, item } = generationItem(sub, { status: 'succeeded', referenceKeys });
  const canvas = sharp(fixturePhoto(face).bytes).resize(1024, 1280, { fit: 'cover', position: 'top' });
  const square = canvas.clone().resize(1024, 1024, { position: 'top' });
  const [original, portrait, squareJpeg, thumbnail] = await Promise.all([
    canvas.clone().png().toBuffer(),
    canvas.clone().jpeg().toBuffer(),
    square.clone().jpeg().toBuffer(),
    square.clone().resize(384, 384).webp().toBuffer(),
  ]);
  const key = (variant: 'portrait' | 'original') => headshotVariantKey(sub, generationId, 0, variant);
  await Promise.all([
    putObject('results', key('original'), original, 'image/png'),
    putObject('results', key('portrait'), portrait, 'image/jpeg'),
    putObject('results', headshotImageKey(sub, generationId, 0), squareJpeg, 'image/jpeg'),
    putObject('results', headshotThumbnailKey(sub, generationId, 0), thumbnail, 'image/webp'),
  ]);
  const { id, item: headshot } = headshotSeedItem(sub, 0, {
    style: 'professional',
    background: 'office',
    isFavorite: false,
    createdAt: new Date().toISOString(),
    generationId,
  });
  await batchPutItems(process.env.TABLE_NAME!, [
    item,
    {
      ...headshot,
      variants: {
        portrait: { key: key('portrait'), width: 1024, height: 1280, bytes: portrait.length },
        original: { key: key('original'), width: 1024, height: 1280, bytes: original.length },
      },
      likeness: 90,
      provider: 'local',
    },
  ]);
  return id;
}
