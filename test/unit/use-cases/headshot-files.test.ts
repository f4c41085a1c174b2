import { describe, expect, it } from 'vitest';
import { ProviderInvalidOutputError } from '../../../functions/adapters/image-providers/types';
import {
  deleteHeadshotFiles,
  makeHeadshotFiles,
  storeHeadshotFiles,
} from '../../../functions/use-cases/headshot-files';
import { planVariants } from '../../../functions/domain/headshot-variants';
import { encodeDescriptor, LikenessRejectedError } from '../../../functions/domain/likeness';
import { failing } from './fakes/failures';
import { FakeHeadshotCodec } from './fakes/headshot-files';
import { FakeBuckets } from './fakes/storage';

const SUB = 'user-1';
const GENERATION = '01KDWYDY00AAAAAAAAAAAAAAAA';
const DESCRIPTOR = encodeDescriptor([1, 0, 0, 0]);

function world() {
  const codec = new FakeHeadshotCodec();
  const buckets = new FakeBuckets();
  return { codec, buckets, ports: codec.portsWith(buckets) };
}

describe('makeHeadshotFiles', () => {
  it('cuts the square and the portrait around the face it measured, with the likeness', async () => {
    const { codec, ports } = world();
    const made = await makeHeadshotFiles(Buffer.from('canvas'), 'openai', DESCRIPTOR, 70, false, ports);
    expect(made.likeness).toBe(90);
    expect(made.plan).toEqual(planVariants({ width: 1024, height: 1280 }, { x: 512, y: 500 }));
    expect(made.files.original.toString()).toBe('original png');
    expect(codec.measured).toEqual([{ referenceDescriptor: DESCRIPTOR, threshold: 70 }]);
  });

  it('refuses bytes that are no image as the named provider’s invalid output', async () => {
    const { ports } = world();
    const making = makeHeadshotFiles(Buffer.from('not an image'), 'openai', DESCRIPTOR, 70, false, ports);
    await expect(making).rejects.toBeInstanceOf(ProviderInvalidOutputError);
    await expect(making).rejects.toThrow(/The openai provider returned an undecodable image/);
  });

  it('refuses a headshot that does not look like the customer, encoding nothing', async () => {
    const { codec, ports } = world();
    codec.scene = { likeness: 40 };
    const making = makeHeadshotFiles(Buffer.from('canvas'), 'local', DESCRIPTOR, 70, false, ports);
    await expect(making).rejects.toBeInstanceOf(LikenessRejectedError);
    await expect(making).rejects.toMatchObject({ likeness: 40 });
    expect(codec.encoded).toEqual([]);
  });

  it('refuses a headshot without a face when there is a customer to compare with', async () => {
    const { codec, ports } = world();
    codec.scene = {};
    await expect(
      makeHeadshotFiles(Buffer.from('canvas'), 'openai', DESCRIPTOR, 70, false, ports),
    ).rejects.toBeInstanceOf(LikenessRejectedError);
  });

  it('frames a generation made before likeness existed by default when no face is found', async () => {
    const { codec, ports } = world();
    codec.scene = {};
    const made = await makeHeadshotFiles(Buffer.from('canvas'), 'openai', undefined, 70, false, ports);
    expect(made.likeness).toBeUndefined();
    expect(made.plan).toEqual(planVariants({ width: 1024, height: 1280 }, undefined));
  });

  it('fails when the original cannot be encoded', async () => {
    const { ports } = world();
    const broken = { ...ports, encodeOriginal: failing(new Error('out of memory')) };
    await expect(
      makeHeadshotFiles(Buffer.from('canvas'), 'openai', DESCRIPTOR, 70, false, broken),
    ).rejects.toThrow('out of memory');
  });
});

describe('storeHeadshotFiles and deleteHeadshotFiles', () => {
  it("stores the slot's four files under its generation's folder, with their sizes", async () => {
    const { buckets, ports } = world();
    const made = await makeHeadshotFiles(Buffer.from('canvas'), 'openai', DESCRIPTOR, 70, false, ports);
    const stored = await storeHeadshotFiles(SUB, GENERATION, 2, made, ports);
    const folder = `results/${SUB}/${GENERATION}`;
    expect(stored).toEqual({
      imageKey: `${folder}/2.jpg`,
      thumbnailKey: `${folder}/thumbnails/2.webp`,
      variants: {
        portrait: {
          key: `${folder}/portrait/2.jpg`,
          ...made.plan.portrait.size,
          bytes: made.files.portrait.length,
        },
        original: {
          key: `${folder}/original/2.png`,
          ...made.plan.original.size,
          bytes: made.files.original.length,
        },
      },
    });
    expect(buckets.keys('results').map((k) => [k, buckets.stored('results', k)!.contentType])).toEqual([
      [`${folder}/2.jpg`, 'image/jpeg'],
      [`${folder}/original/2.png`, 'image/png'],
      [`${folder}/portrait/2.jpg`, 'image/jpeg'],
      [`${folder}/thumbnails/2.webp`, 'image/webp'],
    ]);
    await deleteHeadshotFiles(stored, ports);
    expect(buckets.keys('results')).toEqual([]);
  });

  it('fails when a file cannot be stored', async () => {
    const { ports } = world();
    const made = await makeHeadshotFiles(Buffer.from('canvas'), 'openai', DESCRIPTOR, 70, false, ports);
    await expect(
      storeHeadshotFiles(SUB, GENERATION, 0, made, { putObject: failing(new Error('bucket down')) }),
    ).rejects.toThrow('bucket down');
  });

  it('ignores a failing delete (the files of a refunded slot are best effort)', async () => {
    const { ports } = world();
    const made = await makeHeadshotFiles(Buffer.from('canvas'), 'openai', DESCRIPTOR, 70, false, ports);
    const stored = await storeHeadshotFiles(SUB, GENERATION, 0, made, ports);
    await expect(deleteHeadshotFiles(stored, { deleteObject: failing() })).resolves.toBeUndefined();
  });
});
