import { describe, expect, it } from 'vitest';
import { longestFirst, readFileDurations, UNKNOWN_SECONDS, type SequencedFile } from '../sequencer';

const ROOT = '/repo';
const file = (path: string, project = 'unit', isolate = true): SequencedFile => ({
  moduleId: `${ROOT}/${path}`,
  project,
  isolate,
});
const order = (files: SequencedFile[], durations: Record<string, number>) =>
  longestFirst(files, durations, ROOT).map((f) => f.moduleId.slice(ROOT.length + 1));

describe('longestFirst (the test files’ start order)', () => {
  it('starts the longest recorded file first, across projects', () => {
    const files = [file('a.test.ts'), file('b.test.ts', 'integration'), file('c.test.ts', 'frontend')];
    expect(order(files, { 'a.test.ts': 1, 'b.test.ts': 130, 'c.test.ts': 20 })).toEqual([
      'b.test.ts',
      'c.test.ts',
      'a.test.ts',
    ]);
  });

  it(`counts a file missing from the recording as ${UNKNOWN_SECONDS} s, and orders ties by path`, () => {
    const files = [file('z.test.ts'), file('new.test.ts'), file('short.test.ts'), file('long.test.ts')];
    expect(order(files, { 'z.test.ts': 5, 'short.test.ts': 1, 'long.test.ts': 9 })).toEqual([
      'long.test.ts',
      'new.test.ts',
      'z.test.ts',
      'short.test.ts',
    ]);
  });

  it('keeps the files of a project without isolation together, placed by its longest file', () => {
    const files = [
      file('infra/a.test.ts', 'infrastructure', false),
      file('unit/x.test.ts'),
      file('infra/b.test.ts', 'infrastructure', false),
      file('unit/y.test.ts'),
    ];
    const durations = {
      'infra/a.test.ts': 2,
      'infra/b.test.ts': 50,
      'unit/x.test.ts': 60,
      'unit/y.test.ts': 10,
    };
    expect(order(files, durations)).toEqual([
      'unit/x.test.ts',
      'infra/b.test.ts',
      'infra/a.test.ts',
      'unit/y.test.ts',
    ]);
  });

  it('reads no durations from a missing file: vitest gets every file, in path order', () => {
    const durations = readFileDurations('/nonexistent/file-durations.json');
    expect(durations).toEqual({});
    expect(order([file('b.test.ts'), file('a.test.ts')], durations)).toEqual(['a.test.ts', 'b.test.ts']);
  });
});
