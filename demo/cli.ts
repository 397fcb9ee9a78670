// What `npm start` runs: check the flags, build, start the demo, print where everything is, stop on Ctrl+C, on
// SIGTERM, or when the process that started it goes away.
import { DEMO_USAGE, DemoUsageError, parseDemoArguments, portFlag } from './cli-options.js';
import { startDemo, type RunningDemo } from './server.js';

export interface DemoCliSteps {
  /** Builds the package unless `--no-build` was given; returns false when the build failed (having said why). */
  build?: () => boolean;
}

/** Resolves with the exit code once the demo has stopped (or could not start). */
export async function runDemoCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env, steps: DemoCliSteps = {}): Promise<number> {
  // Read first: the parent may go while the demo starts, or as soon as the banner is out.
  const parent = process.ppid;
  let command;
  try {
    command = parseDemoArguments(argv, env);
  } catch (error) {
    if (!(error instanceof DemoUsageError)) throw error;
    process.stderr.write(`demo: ${error.message}\n\n${DEMO_USAGE}`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(DEMO_USAGE);
    return 0;
  }
  // After the flags are checked: a mistyped flag should not cost a build first.
  if (command.build && steps.build && !steps.build()) return 1;

  let demo: RunningDemo;
  try {
    demo = await startDemo(command.options);
  } catch (error) {
    process.stderr.write(`demo: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  process.stdout.write(banner(demo));

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (reason: string) => {
      // A second Ctrl+C means "now": skip waiting for webhook retries.
      if (stopping) return resolve(130);
      stopping = true;
      clearInterval(parentWatch);
      process.stdout.write(`\n${reason}: stopping the demo…\n`);
      demo.close().then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`demo: error while stopping: ${(error as Error).message}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.on('SIGHUP', stop);
    // `npm start` runs this under `sh -c`. A SIGTERM sent to npm alone (an editor's Stop button, a process
    // manager, `kill <npm's pid>`) ends npm and the shell but not this process, which would keep the four ports
    // open with nobody to stop it. Once the parent is gone, this process has been handed to another one.
    const parentWatch = setInterval(() => {
      if (process.ppid !== parent) stop('the process that started the demo has exited');
    }, 500);
  });
}

function banner(demo: RunningDemo): string {
  const { urls } = demo;
  const docsPort = new URL(urls.docs).port;
  const alias = urls.docs.includes('127.0.0.1') ? ` (or http://localhost:${docsPort}/)` : '';
  const moved = demo.movedPorts.map(({ server, option, wanted, port }) => `  Port ${wanted} was taken: the ${server} is on ${port} instead (set one with ${portFlag(option)}).\n`);
  return (
    `\ntry-it-console demo\n` +
    `  Docs site         ${urls.docs}${alias}\n` +
    `    standalone bundle   ${urls.docs}\n` +
    `    npm import          ${urls.docs}npm-import.html\n` +
    `    <code-snippet>      ${urls.docs}code-snippet.html\n` +
    `  Sample API        ${urls.api}/   (no CORS headers: pages reach it through the proxy)\n` +
    `  CORS proxy        ${urls.proxy}   (allow-private: local development only)\n` +
    `  Webhook receiver  ${urls.receiver}\n` +
    (moved.length > 0 ? `\n${moved.join('')}` : '') +
    `\nPress Ctrl+C to stop.\n`
  );
}
