import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** One line of the summary file: a vitest run's counts, or one test file's duration. */
export type SummaryLine =
  | { kind: 'counts'; passed: number; failed: number; skipped: number }
  | {
      kind: 'failure';
      project: string;
      /** Repository-relative path of the test file. */
      file: string;
      /** The test's full name (suites and test), or `(file)` when the file itself failed to load or in a hook. */
      test: string;
      /** The first line of the first error. */
      error: string;
    }
  | {
      kind: 'file';
      /** The vitest project (`unit`, `integration`, `infrastructure`, `e2e`). */
      project: string;
      /** Repository-relative path of the test file. */
      file: string;
      /** Wall time of the file in its worker, ms: environment, set-up files, imports (collection), hooks and tests. */
      durationMs: number;
      /** Of which importing the file and what it imports, ms. */
      importMs: number;
      tests: number;
    };

function failure(
  module: TestModule,
  test: string,
  errors: ReadonlyArray<{ message?: string; name?: string }> | undefined,
): SummaryLine {
  const first = errors?.[0];
  const error = (`${first?.name ?? 'Error'}: ${first?.message ?? '(no message)'}`.split('\n')[0] ?? '').slice(
    0,
    300,
  );
  return {
    kind: 'failure',
    project: module.project.name,
    file: relative(process.cwd(), module.moduleId),
    test,
    error,
  };
}

/**
 * Counts results after vitest's own report. With `TEST_SUMMARY_FILE` set (test/run.ts does), it appends JSON lines
 * ({@link SummaryLine}) there — the counts and each test file's duration — so several vitest runs add up to one
 * closing line and one timing table; otherwise it prints `Summary: N passed, N failed, N skipped` itself.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const lines: SummaryLine[] = [];
    for (const module of testModules) {
      const tests = [...module.children.allTests()];
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') {
          failed++;
          lines.push(failure(module, test.fullName, test.result().errors));
        } else skipped++;
      }
      // A file that failed to load (or whose hooks failed) has no test results: count it as a failure.
      if (module.state() === 'failed' && !tests.some((t) => t.result().state === 'failed')) {
        failed++;
        lines.push(failure(module, '(file)', module.errors()));
      }
      const diagnostic = module.diagnostic();
      lines.push({
        kind: 'file',
        project: module.project.name,
        file: relative(process.cwd(), module.moduleId),
        durationMs: Math.round(
          diagnostic.environmentSetupDuration +
            diagnostic.prepareDuration +
            diagnostic.setupDuration +
            diagnostic.collectDuration +
            diagnostic.duration,
        ),
        importMs: Math.round(diagnostic.collectDuration),
        tests: tests.length,
      });
    }
    lines.push({ kind: 'counts', passed, failed, skipped });
    const file = process.env.TEST_SUMMARY_FILE;
    if (file) appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    else process.stdout.write(`\nSummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
