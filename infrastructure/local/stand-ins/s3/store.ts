import { promises as fs } from 'node:fs';

/**
 * The part of s3rver's FilesystemStore (lib/stores/filesystem.js, @20minutes/s3rver 5.0.0) that DELETE Object uses.
 * An object `a/b/c` is stored as the files `<bucket>/a/b/c._S3rver_object`, `.._S3rver_object.md5` and
 * `.._S3rver_metadata.json`; the folders `a/` and `a/b/` are made by the PUT that needs them.
 */
export interface FilesystemStoreLike {
  /** The file of one of an object's resources (`object`, `object.md5`, `metadata.json`). */
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

/** s3rver's FilesystemStore class, as its module exports it. */
export interface FilesystemStoreClass {
  prototype: FilesystemStoreLike;
}

/** The files that make up one stored object. */
const RESOURCES = ['object', 'object.md5', 'metadata.json'] as const;

/**
 * Makes DELETE Object remove the object's own files and nothing else.
 *
 * s3rver's own deleteObject then "cleans up empty directories": it checks a folder with `readdirSync` and, when it
 * is empty, removes it with `fs.rm(folder, { recursive: true })`, walking up the key's folders. A PUT into the same
 * folder that lands between the check and the removal (its `mkdir -p` finds the folder, it writes its files, it
 * answers 200) is removed with it: a GET right after the PUT answers NoSuchKey. S3 gives strong read-after-write
 * consistency (https://aws.amazon.com/s3/consistency/): a GET after a successful PUT returns the object, whatever
 * other keys are deleted meanwhile. Under load this lost a slot's provider image: FinishHeadshot of slot 1 deleted
 * `work/<sub>/<generation>/1` (the folder then empty) while CallProvider of slot 2 wrote
 * `work/<sub>/<generation>/2` (docs/decisions/022-missing-work-image.md).
 *
 * Empty folders are left behind: s3rver lists objects by their files, so an empty folder is no key and no common
 * prefix, as in S3, where folders do not exist. Idempotent.
 */
export function deleteOnlyTheObject(store: FilesystemStoreClass): void {
  store.prototype.deleteObject = async function deleteObject(
    this: FilesystemStoreLike,
    bucket: string,
    key: string,
  ): Promise<void> {
    await Promise.all(
      RESOURCES.map((resource) =>
        fs.unlink(this.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  };
}
