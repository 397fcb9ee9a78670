// `npm start`: check the flags, build the package (the pages load dist/), then run the demo (demo/cli.ts,
// TypeScript through tsx) until Ctrl+C. `npm start -- --help` lists the ports and flags; `--no-build` skips the build.
import { spawnSync } from 'node:child_process';
import { register } from 'tsx/esm/api';

function build() {
  console.log('Building the package (npm run build)…');
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status === 0) return true;
  console.error(`\nThe build failed (exit ${result.status ?? result.signal}); the demo needs dist/. Fix the errors above and run npm start again.`);
  return false;
}

register();
const { runDemoCli } = await import('../demo/cli.ts');
process.exit(await runDemoCli(process.argv.slice(2), process.env, { build }));
