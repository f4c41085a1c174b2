import { readdirSync } from 'node:fs';

/**
 * Every photo the duplicate evaluations compare (test/unit/duplicate-photos*.test.ts): test/fixtures/photos (8: the
 * obama files, biden.jpg) and test/fixtures/faces (33: 7 people, many near-identical poses of one sitting).
 */
export const FIXTURE_PHOTOS: readonly { name: string; path: URL }[] = (['photos', 'faces'] as const).flatMap(
  (dir) =>
    readdirSync(new URL(`../fixtures/${dir}/`, import.meta.url))
      .filter((name) => /\.(jpe?g|heic)$/.test(name))
      .map((name) => ({ name, path: new URL(`../fixtures/${dir}/${name}`, import.meta.url) })),
);
