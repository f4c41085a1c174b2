// The npm registry reachable from our CI machines serves only the Linux x64 builds of some packages' per-platform
// binaries (@tailwindcss/oxide's, and unrs-resolver's, which eslint-plugin-import-x uses), so `npm install` here
// writes a lockfile without the other platforms' optional entries, and `npm ci` then refuses it as out of sync.
// This adds those entries back (they are skipped on Linux x64 by their os/cpu fields, and fetched normally
// elsewhere). Run it after any `npm install` that rewrites package-lock.json:
//   node .ci/complete-lockfile.mjs
import fs from 'node:fs';

const file = 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));

/** Packages whose optional dependencies are per-platform binaries, with the prefix those binaries are named by. */
const PARENTS = {
  'node_modules/@tailwindcss/oxide': { prefix: '@tailwindcss/oxide-', extra: { engines: { node: '>= 20' } } },
  'node_modules/unrs-resolver': { prefix: '@unrs/resolver-binding-', extra: {} },
};

/** `darwin-arm64`, `linux-arm-gnueabihf`, `win32-x64-msvc`, `wasm32-wasi` → the os/cpu/libc fields npm checks. */
function platformOf(suffix) {
  const [first, second, third] = suffix.split('-');
  if (first === 'wasm32') return { cpu: ['wasm32'] };
  const fields = { os: [first], cpu: [second] };
  if (first === 'linux' && third) fields.libc = [third.startsWith('musl') ? 'musl' : 'glibc'];
  return fields;
}

const packages = {};
let added = 0;
for (const [key, value] of Object.entries(lock.packages)) {
  packages[key] = value;
  const parent = PARENTS[key];
  if (!parent) continue;
  for (const [dependency, version] of Object.entries(value.optionalDependencies ?? {})) {
    const entry = `node_modules/${dependency}`;
    if (!dependency.startsWith(parent.prefix) || lock.packages[entry]) continue;
    const { os, cpu, libc } = platformOf(dependency.slice(parent.prefix.length));
    packages[entry] = {
      version,
      cpu,
      dev: true,
      license: 'MIT',
      optional: true,
      ...(os ? { os } : {}),
      ...(libc ? { libc } : {}),
      ...parent.extra,
    };
    added++;
  }
}
lock.packages = packages;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`);
