import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './sequencer';

const root = fileURLToPath(new URL('..', import.meta.url));

// The X-Ray SDK (under Powertools' Tracer, which every handler imports) starts in automatic mode unless told not to:
// an async hook that tracks every promise's creation and destruction, in every process that loads a handler, though
// tracing is off outside Lambda (functions/common/tracer.ts). Manual mode skips the hook: `generation.test.ts` 32.1 →
// 31.3 s of CPU (decision 014, seventh round). Set here, before the stacks' and the workers' first import; Lambda
// never sees it, and the unit project keeps the SDK's default (tracing.test.ts traces as Lambda does).
process.env.AWS_XRAY_MANUAL_MODE ??= '1';

/**
 * Five projects, one per kind of test. `npm test` (test/run.ts) runs them all, `npm run test:fast` the three that
 * need no emulator and no browser (unit, frontend, infrastructure); each can run alone with `npm run test:<project>`.
 */
export default defineConfig({
  root,
  test: {
    // vitest's default on a 2-core machine is one worker (cores - 1). The files of a project are independent and
    // spend much of their time waiting (emulators, the workflow, a browser): `npm test` (test/run.ts) runs three at a
    // time beside e2e, which runs one at a time (decision 014); one project alone runs two.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    // Longest recorded file first, across projects (test/sequencer.ts): the files that mostly wait start early.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // The files of a worker share one module graph, as the infrastructure project's do: each file loading the
          // handlers, the SDK and the face models again cost about a third of this project's CPU (decision 014,
          // seventh round). What a file changes it puts back: configuration and the SDK clients built from it
          // (`resetConfigForTests`), the face-model replay installed once (test/helpers/face-model-recording.ts).
          isolate: false,
          include: ['test/unit/**/*.test.{ts,tsx}'],
          exclude: ['test/unit/frontend/**'],
          environment: 'node',
          setupFiles: ['test/unit/setup-backend.ts'],
          testTimeout: 30_000,
          // Handlers log unhandled errors on purpose in some tests; keep the report readable.
          env: {
            POWERTOOLS_LOG_LEVEL: 'SILENT',
            POWERTOOLS_METRICS_DISABLED: 'true',
            // Exposes @aws/lambda-invoke-store's own reset (`InvokeStore._testing`): the SDK makes the process's
            // per-invocation store on its first call, and local-lambda-log-context.test.ts needs the concurrent one.
            AWS_LAMBDA_BENCHMARK_MODE: '1',
            AWS_XRAY_MANUAL_MODE: '',
          },
        },
      },
      {
        extends: true,
        test: {
          // The SPA's modules, hooks and pages (jsdom where a file asks for it with `@vitest-environment jsdom`).
          name: 'frontend',
          include: ['test/unit/frontend/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['test/unit/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/integration/setup-env.ts'],
          env: { POWERTOOLS_METRICS_DISABLED: 'true' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'infrastructure',
          include: ['test/infrastructure/**/*.test.ts'],
          // The files of a worker share one module graph, so the dev-stage test stack (helpers.ts `devStack()`) is
          // synthesized once per worker, not once per file; no file changes global state.
          isolate: false,
          // aws-cdk-lib's built-in CloudFormation validation (a WASM engine, on by default since 2.2xx) took 51 of the
          // 93 s of CPU these files spent (decision 014, fifth round). The templates are still validated: cfn-lint on
          // every deployed template (cloud-validators.test.ts), which fails on an error where that validation only
          // warns; here they answer assertions.
          env: { CDK_VALIDATION: 'false' },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One file at a time (test/run.ts): the provider holds of the queue and phone tests would stall a neighbour.
          fileParallelism: false,
        },
      },
    ],
  },
});
