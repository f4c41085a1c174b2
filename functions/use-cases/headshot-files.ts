import {
  canvasPixels,
  decodeCanvas,
  encodeHeadshotFiles,
  encodeOriginal,
  type HeadshotFiles,
} from '../adapters/headshot-files';
import type { StoredVariant } from '../adapters/headshots/records';
import { ProviderInvalidOutputError } from '../adapters/image-providers/types';
import { deleteObject, putObject } from '../adapters/storage';
import { LIKENESS_SIDE, locateAndMeasure } from '../adapters/vision/likeness';
import {
  planVariants,
  VARIANT_CONTENT_TYPES,
  type HeadshotVariant,
  type VariantPlan,
} from '../domain/headshot-variants';
import { headshotThumbnailKey, versionVariantKey } from '../domain/object-keys';

/**
 * One headshot's files from the provider's image (issue 28, domain/headshot-variants.ts): the face found on the
 * canvas places the square and the portrait, its likeness is the guarantee's, and the four files are stored once,
 * under the generation's folder of the owner's results prefix.
 */

/** What making and storing a headshot's files needs from the outside world: the codec, the face models, S3. */
export interface HeadshotFilesPorts {
  decodeCanvas: typeof decodeCanvas;
  canvasPixels: typeof canvasPixels;
  locateAndMeasure: typeof locateAndMeasure;
  encodeOriginal: typeof encodeOriginal;
  encodeHeadshotFiles: typeof encodeHeadshotFiles;
  putObject: (bucket: 'results', key: string, body: Buffer, contentType: string) => Promise<void>;
  deleteObject: (bucket: 'results', key: string) => Promise<void>;
}

const adapters: HeadshotFilesPorts = {
  decodeCanvas,
  canvasPixels,
  locateAndMeasure,
  encodeOriginal,
  encodeHeadshotFiles,
  putObject,
  deleteObject,
};

/** The files of one headshot, and what they were cut by. */
export interface MadeHeadshot {
  files: HeadshotFiles;
  plan: VariantPlan;
  /** Likeness to the customer, 0-100; `undefined` for a generation prepared before likeness existed. */
  likeness: number | undefined;
  /** True when the files kept the image's alpha channel (a transparent edit: PNG square and portrait). */
  transparent: boolean;
}

/**
 * Decodes the provider's image once, finds its face (and, given the customer's descriptor, requires its likeness)
 * and encodes the square, its thumbnail, the portrait and the original. The original's PNG encode needs no face,
 * so it runs beside the face models; the square and the portrait wait for the face that places them.
 *
 * @param providerName for the error message
 * @param referenceDescriptor the customer's descriptor (base64 float32), `undefined` for a legacy generation
 * @param threshold minimum likeness, 0-100
 * @param transparent keep the image's alpha channel (a transparent edit, domain/headshot-versions.ts): the square and
 *   the portrait are PNG, the thumbnail a WebP with alpha; the face is still found and measured on white
 * @throws {ProviderInvalidOutputError} the image does not decode
 * @throws {LikenessRejectedError} no face, too little likeness, or a face the square cannot hold (nothing is stored)
 */
export async function makeHeadshotFiles(
  image: Buffer,
  providerName: string,
  referenceDescriptor: string | undefined,
  threshold: number,
  transparent = false,
  ports: HeadshotFilesPorts = adapters,
): Promise<MadeHeadshot> {
  let canvas;
  try {
    canvas = await ports.decodeCanvas(image, transparent);
  } catch (error) {
    throw new ProviderInvalidOutputError(
      `The ${providerName} provider returned an undecodable image: ${String(error)}`,
    );
  }
  // The face models' pixels are asked for first, so they go ahead of the PNG encode in sharp's queue.
  const measuring = ports
    .canvasPixels(canvas, LIKENESS_SIDE)
    .then((pixels) => ports.locateAndMeasure(pixels, canvas, referenceDescriptor, threshold));
  const original = ports.encodeOriginal(canvas);
  const [face, png] = await Promise.allSettled([measuring, original]);
  if (face.status === 'rejected') throw face.reason;
  if (png.status === 'rejected') throw png.reason;
  const plan = planVariants(canvas, face.value?.eyes);
  const files = await ports.encodeHeadshotFiles(canvas, plan, Promise.resolve(png.value));
  return { files, plan, likeness: face.value?.likeness, transparent };
}

/** Where {@link storeHeadshotFiles} put a headshot's files: what its item records. */
export interface StoredHeadshotFiles {
  imageKey: string;
  thumbnailKey: string;
  variants: { portrait: StoredVariant; original: StoredVariant };
}

/**
 * Stores the four files of one slot: `results/<sub>/<generationId>/<slot>.jpg` (square),
 * `…/thumbnails/<slot>.webp`, `…/portrait/<slot>.jpg` and `…/original/<slot>.png` (domain/object-keys.ts); a
 * transparent edit's square and portrait are `.png`, stored as `image/png`.
 * Writing them again for the same slot overwrites the same keys (a retried slot stores nothing twice).
 */
export async function storeHeadshotFiles(
  sub: string,
  generationId: string,
  slot: number,
  made: MadeHeadshot,
  ports: Pick<HeadshotFilesPorts, 'putObject'> = adapters,
): Promise<StoredHeadshotFiles> {
  const key = (variant: HeadshotVariant) =>
    versionVariantKey(sub, generationId, slot, variant, made.transparent);
  const type = (variant: HeadshotVariant) =>
    made.transparent ? 'image/png' : VARIANT_CONTENT_TYPES[variant];
  const stored: StoredHeadshotFiles = {
    imageKey: key('square'),
    thumbnailKey: headshotThumbnailKey(sub, generationId, slot),
    variants: {
      portrait: {
        key: key('portrait'),
        ...made.plan.portrait.size,
        bytes: made.files.portrait.length,
      },
      original: {
        key: key('original'),
        ...made.plan.original.size,
        bytes: made.files.original.length,
      },
    },
  };
  await Promise.all([
    ports.putObject('results', stored.imageKey, made.files.square, type('square')),
    ports.putObject('results', stored.thumbnailKey, made.files.thumbnail, 'image/webp'),
    ports.putObject('results', stored.variants.portrait.key, made.files.portrait, type('portrait')),
    ports.putObject('results', stored.variants.original.key, made.files.original, type('original')),
  ]);
  return stored;
}

/** Deletes what {@link storeHeadshotFiles} stored (a slot refunded while it was being saved); errors are ignored. */
export async function deleteHeadshotFiles(
  stored: StoredHeadshotFiles,
  ports: Pick<HeadshotFilesPorts, 'deleteObject'> = adapters,
): Promise<void> {
  await Promise.all(
    [stored.imageKey, stored.thumbnailKey, stored.variants.portrait.key, stored.variants.original.key].map(
      (key) => ports.deleteObject('results', key),
    ),
  ).catch(() => undefined);
}
