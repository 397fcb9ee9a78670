// `npm start`: build the package (the pages load dist/), then run the demo (demo/cli.ts, TypeScript through tsx)
// until Ctrl+C. `npm start -- --help` lists the ports and flags; `--no-build` skips the build.
import { spawnSync } from 'node:child_process';
import { register } from 'tsx/esm/api';

const args = process.argv.slice(2);
const wantsHelp = args.includes('--help') || args.includes('-h');

if (!args.includes('--no-build') && !wantsHelp) {
  console.log('Building the package (npm run build)…');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) {
    console.error(`\nThe build failed (exit ${build.status ?? build.signal}); the demo needs dist/. Fix the errors above and run npm start again.`);
    process.exit(build.status || 1);
  }
}

register();
const { runDemoCli } = await import('../demo/cli.ts');
process.exit(await runDemoCli(args.filter((arg) => arg !== '--no-build')));
