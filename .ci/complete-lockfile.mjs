// The npm registry reachable from our CI machines serves only the Linux builds of @tailwindcss/oxide's
// platform packages, so `npm install` here writes a lockfile without the other platforms' optional entries, and
// `npm ci` then refuses it as out of sync. This adds those entries back (they are skipped on Linux by their os/cpu
// fields, and fetched normally elsewhere). Run it after any `npm install` that rewrites package-lock.json:
//   node .ci/complete-lockfile.mjs
import fs from 'node:fs';

const file = 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const parent = lock.packages['node_modules/@tailwindcss/oxide'];
if (!parent) process.exit(0);
const platforms = {
  'android-arm64': [['android'], ['arm64']],
  'darwin-arm64': [['darwin'], ['arm64']],
  'darwin-x64': [['darwin'], ['x64']],
  'freebsd-x64': [['freebsd'], ['x64']],
  'linux-arm-gnueabihf': [['linux'], ['arm']],
  'linux-arm64-gnu': [['linux'], ['arm64']],
  'linux-arm64-musl': [['linux'], ['arm64']],
  'linux-x64-gnu': [['linux'], ['x64']],
  'linux-x64-musl': [['linux'], ['x64']],
  'wasm32-wasi': [null, ['wasm32']],
  'win32-arm64-msvc': [['win32'], ['arm64']],
  'win32-x64-msvc': [['win32'], ['x64']],
};
const packages = {};
let added = 0;
for (const [key, value] of Object.entries(lock.packages)) {
  packages[key] = value;
  if (key !== 'node_modules/@tailwindcss/oxide') continue;
  for (const [name, [os, cpu]] of Object.entries(platforms)) {
    const entry = `node_modules/@tailwindcss/oxide-${name}`;
    if (lock.packages[entry] || !parent.optionalDependencies?.[`@tailwindcss/oxide-${name}`]) continue;
    packages[entry] = {
      version: parent.version,
      cpu,
      dev: true,
      license: 'MIT',
      optional: true,
      ...(os ? { os } : {}),
      engines: { node: '>= 20' },
    };
    added++;
  }
}
lock.packages = packages;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`);
