// Stands in for `node-fetch` in the Lambda bundles (the `alias` of app-function.ts's esbuild settings).
// @tensorflow/tfjs-core's Node platform require()s node-fetch only when there is no global fetch: Node 24 has one,
// so the 300 KB package would be dead weight parsed at every cold start of the vision functions. Should the fallback
// ever run, it gets Node's own fetch.
module.exports = function fetch(input, init) {
  return globalThis.fetch(input, init);
};
