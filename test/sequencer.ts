import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each test file took in a recorded full run (`npm run test:times` writes `test/file-durations.json`), keyed
 * by repository-relative path. A file not in it (new since the recording) counts as {@link UNKNOWN_SECONDS}.
 */
export type FileDurations = Readonly<Record<string, number>>;

/** What a file missing from the recording is taken to last, s: about the median test file. */
export const UNKNOWN_SECONDS = 5;

/** A test file as the sequencer sees it: its path, and whether its project shares one module graph per worker. */
export interface SequencedFile {
  moduleId: string;
  /** The project's name. */
  project: string;
  /** `false` for a project run with `isolate: false` (its files share a worker's module graph while they follow each other). */
  isolate: boolean;
}

/**
 * The order to start `files` in: longest recorded duration first, across projects (ties by path, so the order is the
 * same on every machine). The files of a project that is not isolated stay together, longest first, placed as one
 * block as long as its longest file: vitest reuses such a worker only for the next file of the same project, so
 * spreading them would import and synthesize again in every file (the infrastructure project's `devStack()`).
 *
 * Why (decision 014, fifth round): vitest's own order runs the projects one after another by name and, on a fresh
 * clone with no cache, each project's files largest first. The files that mostly wait (on a rate-limited provider,
 * on the workflow) then start late and leave a tail where one core idles. Longest first (the LPT rule of scheduling)
 * starts them while the short CPU-bound files fill the other worker, and ends the run with short files.
 *
 * @param root the repository root the keys of `durations` are relative to
 */
export function longestFirst<T extends SequencedFile>(
  files: readonly T[],
  durations: FileDurations,
  root: string,
): T[] {
  const cost = (file: T) => durations[relative(root, file.moduleId)] ?? UNKNOWN_SECONDS;
  const byCost = (a: T, b: T) => cost(b) - cost(a) || a.moduleId.localeCompare(b.moduleId);
  const blocks = new Map<string, T[]>();
  for (const file of files) {
    const key = file.isolate ? `file:${file.moduleId}` : `project:${file.project}`;
    blocks.set(key, [...(blocks.get(key) ?? []), file]);
  }
  return [...blocks.values()]
    .map((block) => block.sort(byCost))
    .sort((a, b) => byCost(a[0]!, b[0]!))
    .flat();
}

/** Reads `file` as {@link FileDurations}; none (every file unknown) when it is missing or unreadable. */
export function readFileDurations(file: string): FileDurations {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as FileDurations;
  } catch {
    return {};
  }
}

/** vitest's sequencer with {@link longestFirst} as its order (sharding is vitest's own). */
export default class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const sequenced = files.map((spec) => ({
      spec,
      moduleId: spec.moduleId,
      project: spec.project.name,
      isolate: spec.project.config.isolate,
    }));
    const durations = readFileDurations(`${root}/test/file-durations.json`);
    return Promise.resolve(longestFirst(sequenced, durations, root).map(({ spec }) => spec));
  }
}
