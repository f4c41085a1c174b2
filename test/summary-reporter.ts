import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Counts results after vitest's own report. With `TEST_SUMMARY_FILE` set (test/run.ts does), it appends one JSON
 * line `{ passed, failed, skipped }` there, so several vitest runs add up to one closing line; otherwise it prints
 * `Summary: N passed, N failed, N skipped` itself.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      const tests = [...module.children.allTests()];
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load (or whose hooks failed) has no test results: count it as a failure.
      if (module.state() === 'failed' && !tests.some((t) => t.result().state === 'failed')) failed++;
    }
    const file = process.env.TEST_SUMMARY_FILE;
    if (file) appendFileSync(file, `${JSON.stringify({ passed, failed, skipped })}\n`);
    else process.stdout.write(`\nSummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
