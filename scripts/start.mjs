// `npm start`: check the flags, build the package unless dist/ is already built from the current sources (the pages
// load dist/), then run the demo (demo/cli.ts, TypeScript through tsx) until Ctrl+C. `npm start -- --help` lists
// the ports and flags; `--no-build` skips the build and its check.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { buildWithStamp, isBuildCurrent, sourceFingerprint } from './build-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function build() {
  const fingerprint = sourceFingerprint(root);
  if (isBuildCurrent(root, fingerprint)) {
    console.log('dist/ is built from the current sources; skipping the build (npm run build forces one).');
    return true;
  }
  console.log('Building the package (npm run build)…');
  return buildWithStamp(root, runBuild, fingerprint);
}

function runBuild() {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status === 0) return true;
  console.error(`\nThe build failed (exit ${result.status ?? result.signal}); the demo needs dist/. Fix the errors above and run npm start again.`);
  return false;
}

register();
const { runDemoCli } = await import('../demo/cli.ts');
process.exit(await runDemoCli(process.argv.slice(2), process.env, { build }));
