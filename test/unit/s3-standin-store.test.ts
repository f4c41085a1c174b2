import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteOnlyTheObject } from '../../infrastructure/local/stand-ins/s3/store';

/*
 * The S3 stand-in's store (infrastructure/local/stand-ins/s3/store.ts) against S3's read-after-write consistency
 * (https://aws.amazon.com/s3/consistency/): a PUT that succeeded is readable, whatever is deleted next to it at the
 * same moment (docs/decisions/022-missing-work-image.md).
 */

/** s3rver's FilesystemStore, as far as these tests use it. */
interface Store {
  putObject(object: {
    bucket: string;
    key: string;
    content: Readable;
    metadata: Record<string, string>;
  }): Promise<unknown>;
  getObject(bucket: string, key: string): Promise<{ content: Readable | null } | null>;
  deleteObject(bucket: string, key: string): Promise<void>;
  listObjects(
    bucket: string,
    options: { prefix: string; delimiter: string },
  ): Promise<{ objects: { key: string }[]; commonPrefixes: string[] }>;
}
type StoreClass = new (directory: string) => Store;

const load = createRequire(import.meta.url);
const FilesystemStore = load('@20minutes/s3rver/lib/stores/filesystem') as StoreClass;

/** A store class of its own with the fix, so s3rver's class stays as this worker's other files know it. */
function fixedStore(directory: string): Store {
  class Fixed extends FilesystemStore {}
  deleteOnlyTheObject(Fixed as unknown as Parameters<typeof deleteOnlyTheObject>[0]);
  return new Fixed(directory);
}

const directories: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function newStore(): Store {
  const directory = mkdtempSync(join(tmpdir(), 's3-standin-'));
  directories.push(directory);
  return fixedStore(directory);
}

/** A PUT as s3rver's PUT Object route makes it: the request body as a stream. */
function put(store: Store, key: string, bytes: Buffer) {
  return store.putObject({ bucket: 'results', key, content: Readable.from([bytes]), metadata: {} });
}

async function read(store: Store, key: string): Promise<Buffer | null> {
  const object = await store.getObject('results', key);
  if (!object?.content) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.content as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('the S3 stand-in: a DELETE next to a PUT', () => {
  it('keeps an object PUT into the folder the DELETE just emptied (the lost provider image)', async () => {
    const store = newStore();
    const image = Buffer.from('slot 2 image');
    await put(store, 'work/sub/gen/1', Buffer.from('slot 1 image'));
    // Slot 2's PUT lands at the worst moment for s3rver's own delete: after it found the folder empty, before it
    // removed the folder (with everything in it). The fixed delete removes no folder, so the moment never comes.
    const realRm = fs.rm.bind(fs);
    let slot2Put: Promise<unknown> | undefined;
    vi.spyOn(fs, 'rm').mockImplementation(async (path, options) => {
      slot2Put ??= put(store, 'work/sub/gen/2', image);
      await slot2Put;
      return realRm(path, options);
    });

    await store.deleteObject('results', 'work/sub/gen/1');
    await (slot2Put ?? put(store, 'work/sub/gen/2', image));

    expect(await read(store, 'work/sub/gen/2')).toEqual(image);
    expect(await read(store, 'work/sub/gen/1')).toBeNull();
  });

  it('reads every object right after its PUT while its siblings are deleted at the same time (200 rounds)', async () => {
    const store = newStore();
    const lost: string[] = [];
    for (let round = 0; round < 200; round++) {
      const prefix = `work/sub/gen-${round}`;
      await put(store, `${prefix}/0`, Buffer.from('first'));
      // A generation's slots: one finished (deleted) while the others write into the same new folder.
      await Promise.all([
        store.deleteObject('results', `${prefix}/0`),
        ...[1, 2, 3].map((slot) => put(store, `${prefix}/${slot}`, Buffer.from(`slot ${slot}`))),
      ]);
      for (const slot of [1, 2, 3])
        if (!(await read(store, `${prefix}/${slot}`))) lost.push(`${prefix}/${slot}`);
    }
    expect(lost).toEqual([]);
  });

  it('deletes the object, and a missing key quietly; the folder it leaves is no key and no common prefix', async () => {
    const store = newStore();
    await put(store, 'a/b/c', Buffer.from('bytes'));
    await put(store, 'a/d', Buffer.from('kept'));
    await store.deleteObject('results', 'a/b/c');
    await store.deleteObject('results', 'a/b/never');
    expect(await read(store, 'a/b/c')).toBeNull();
    const listed = await store.listObjects('results', { prefix: 'a/', delimiter: '/' });
    expect(listed.objects.map((o) => o.key)).toEqual(['a/d']);
    expect(listed.commonPrefixes).toEqual([]);
  });
});
