/*
 * The esbuild settings every Lambda bundle shares that are not CDK's own (app-function.ts passes them to
 * NodejsFunction; test/bench/bundles.ts builds with the same ones). Free of aws-cdk-lib, so the bench and tests can
 * import it cheaply.
 */

/**
 * Packages that stay out of the bundle and come from a layer: `sharp` (native binaries esbuild cannot bundle) and
 * `heic-convert` (2 MB of HEVC decoder, imported dynamically only when a HEIC photo arrives: bundled, it would be
 * parsed at every cold start of the image tasks).
 */
export const NATIVE_MODULES = ['sharp', 'heic-convert'] as const;

/**
 * Gives ESM bundles the CommonJS globals their bundled CommonJS dependencies use: `require()`, and `__filename` /
 * `__dirname` (libheif-js, under heic-convert, reads `__dirname` when it loads: without them the workflow tasks that
 * decode photos fail their cold start with "ReferenceError: __dirname is not defined in ES module scope").
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __headshotCreateRequire } from 'node:module'; import { fileURLToPath as __headshotFileURLToPath } from 'node:url'; import { dirname as __headshotDirname } from 'node:path'; const require = __headshotCreateRequire(import.meta.url); const __filename = __headshotFileURLToPath(import.meta.url); const __dirname = __headshotDirname(__filename);";

/**
 * esbuild `alias`es, relative to the repository root (the working directory of every bundling): packages replaced by
 * what the runtime already has. `node-fetch` (300 KB minified) is what @tensorflow/tfjs-core require()s when there is
 * no global fetch; Node 24 has one, so the vision functions get a three-line forward to it instead
 * (global-fetch.cjs). `@tensorflow/tfjs` (the umbrella face-api's node-wasm build requires: WebGL, CPU, Layers,
 * Converter, Data) becomes tfjs-core alone (tfjs-core-only.cjs): the identity net needs only core ops on the wasm
 * backend. The models still load and tell people apart (test/infrastructure/vision-bundle.test.ts runs a bundle
 * built so).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  'node-fetch': './infrastructure/constructs/global-fetch.cjs',
  '@tensorflow/tfjs': './infrastructure/constructs/tfjs-core-only.cjs',
};
