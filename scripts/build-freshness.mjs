// Whether dist/ was built from the sources as they are now, so that `npm start` can skip a build of about 12 s.
// A fingerprint of every build input is written to a stamp once a build succeeds, and removed before one starts
// (`npm run build` removes it too, in its prebuild script): a build cut short (Ctrl+C) leaves no stamp, so the next
// start builds again instead of serving half a dist/.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What `npm run build` reads, besides node_modules (whose versions package-lock.json pins). */
export const BUILD_INPUTS = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.core.json',
  'rollup.config.mjs',
  'custom-elements-manifest.config.mjs',
  'scripts/minify-css-literals.mjs',
  'scripts/minify-html-literals.mjs',
  'scripts/share-decorate-helper.mjs',
];

/** What the demo pages load; a stamp without them (dist/ partly deleted) does not count. */
export const BUILD_OUTPUTS = ['dist/index.js', 'dist/try-it-console.bundle.js'];

const STAMP = 'dist/.build-fingerprint';

/** A hash of every input's path and bytes: content, not mtimes, which a checkout or a copy may keep or reset. */
export function sourceFingerprint(root, inputs = BUILD_INPUTS) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of filesUnder(join(root, input))) {
      hash.update(`${relative(root, file)}\0`);
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** True when the last build that finished was made from exactly these inputs and its outputs are still there. */
export function isBuildCurrent(root, fingerprint = sourceFingerprint(root), outputs = BUILD_OUTPUTS) {
  const stamp = join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint && outputs.every((output) => existsSync(join(root, output)));
}

/** Runs `build` (true when it succeeded); the stamp exists afterwards only if it succeeded. */
export function buildWithStamp(root, build, fingerprint = sourceFingerprint(root)) {
  rmSync(join(root, STAMP), { force: true });
  if (!build()) return false;
  writeFileSync(join(root, STAMP), fingerprint);
  return true;
}

// Files in a stable order, so the same tree always hashes the same; a missing input hashes as nothing.
function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => filesUnder(join(path, entry.name)));
}
