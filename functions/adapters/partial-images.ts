import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { storageSettings } from '../config/storage';
import { MAX_PARTIAL_IMAGES, partialImageKey, partialImagesPrefix } from '../domain/object-keys';
import { DOWNLOAD_URL_TTL_SECONDS } from '../domain/presigned-urls';
import { s3Client } from './support/aws';
import { deleteObjects } from './support/objects';
import { presignGet } from './support/url-signer';

/*
 * The latest partial image of a streaming slot (issue 36, docs/decisions/025-openai-parameters.md), in the results
 * bucket under `partial/<sub>/<generationId>/<slot>/<index>.png` (domain/object-keys.ts `partialImageKey`). Each
 * partial replaces the one before; FinishHeadshot deletes them; the `expire-partial` lifecycle rule takes what is
 * left after a day (infrastructure/constructs/storage.ts).
 */

const keyOf = partialImageKey;

/** One slot's latest partial image, presigned. */
export interface PartialPreview {
  slot: number;
  /** A presigned GET (valid at least DOWNLOAD_URL_TTL_SECONDS, reused within its signing window). */
  url: string;
  /** OpenAI's `partial_image_index` (0-based). */
  index: number;
}

/**
 * Stores a slot's partial image `index` (PNG bytes) and deletes the ones before it (a slot shows its latest only).
 *
 * @throws the SDK error when S3 refuses the write (the caller logs it: a preview is optional)
 */
export async function putPartialImage(
  sub: string,
  generationId: string,
  slot: number,
  index: number,
  bytes: Buffer,
): Promise<void> {
  const bucket = storageSettings().RESULTS_BUCKET;
  await s3Client().send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: keyOf(sub, generationId, slot, index),
      Body: bytes,
      ContentType: 'image/png',
    }),
  );
  const before = Array.from({ length: index }, (_, i) => keyOf(sub, generationId, slot, i));
  if (before.length > 0) await deleteObjects(bucket, before);
}

/** Deletes every partial image of a slot (S3 answers success for the missing ones). */
export async function deletePartialImages(sub: string, generationId: string, slot: number): Promise<void> {
  const keys = Array.from({ length: MAX_PARTIAL_IMAGES }, (_, i) => keyOf(sub, generationId, slot, i));
  await deleteObjects(storageSettings().RESULTS_BUCKET, keys);
}

/**
 * The latest partial image of each slot of a generation that has any, presigned, in slot order: one List of
 * `partial/<sub>/<generationId>/` (at most 6 slots × 2 keys between a write and its delete).
 */
export async function latestPartialImages(sub: string, generationId: string): Promise<PartialPreview[]> {
  const prefix = partialImagesPrefix(sub, generationId);
  const listed = await s3Client().send(
    new ListObjectsV2Command({ Bucket: storageSettings().RESULTS_BUCKET, Prefix: prefix }),
  );
  const latest = new Map<number, number>();
  for (const { Key } of listed.Contents ?? []) {
    const match = /^(\d+)\/(\d+)\.png$/.exec(Key?.slice(prefix.length) ?? '');
    if (!match) continue;
    const [slot, index] = [Number(match[1]), Number(match[2])];
    latest.set(slot, Math.max(index, latest.get(slot) ?? -1));
  }
  const slots = [...latest.entries()].sort(([a], [b]) => a - b);
  return Promise.all(
    slots.map(async ([slot, index]) => ({
      slot,
      index,
      url: await presignGet('results', keyOf(sub, generationId, slot, index), DOWNLOAD_URL_TTL_SECONDS, {
        reuse: true,
      }),
    })),
  );
}
