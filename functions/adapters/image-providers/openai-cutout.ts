import sharp from 'sharp';
import { decodeRgb, personMatte } from '../support/vision-models/faces';

/**
 * The transparent edit's fallback (docs/decisions/025-openai-parameters.md): a model that cannot be relied on for
 * `background: transparent` (a preview on gpt-image-2, or a model the table does not know) is asked an opaque plain
 * backdrop, and the person is cut out here with the segmentation model the offline provider's cutouts use
 * (adapters/support/vision-models/faces.ts `personMatte`: 0 background, 255 person, at the image's own size).
 *
 * @param bytes the model's answer (PNG, JPEG or WebP)
 * @returns a PNG of the same size with the matte as its alpha channel
 * @throws {Error} when the bytes do not decode or the segmentation model produced nothing (the slot then fails and is
 *   refunded, as any output the product cannot use)
 */
export async function cutOutPerson(bytes: Buffer): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  const image = await decodeRgb(bytes, Math.max(width, height));
  const matte = await personMatte(image);
  const raw = { width: image.width, height: image.height };
  return sharp(image.data, { raw: { ...raw, channels: 3 } })
    .joinChannel(matte, { raw: { ...raw, channels: 1 } })
    .png()
    .toBuffer();
}
