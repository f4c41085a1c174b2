// Stands in for the `@tensorflow/tfjs` umbrella package in the Lambda bundles (the `alias` of app-function.ts's
// esbuild settings). @vladmandic/face-api's node-wasm build require()s the umbrella, which brings the WebGL and CPU
// backends, Layers, Converter and Data (about 730 KB minified) into every vision bundle; the identity net
// (functions/adapters/vision/identity-net.ts) calls only tfjs-core ops, on the wasm backend Human has already set.
// The umbrella also registers the tensors' chained ops (`tensor.as3D()`, which face-api calls): so does this.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS module by design: it replaces a package that face-api require()s */
require('@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops');
module.exports = require('@tensorflow/tfjs-core');
