// What `npm start` runs after building: start the demo, print where everything is, stop on Ctrl+C or SIGTERM.
import { DEMO_USAGE, DemoUsageError, parseDemoArguments } from './cli-options.js';
import { startDemo, type RunningDemo } from './server.js';

/** Resolves with the exit code once the demo has stopped (or could not start). */
export async function runDemoCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
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

  let demo: RunningDemo;
  try {
    demo = await startDemo(command.options);
  } catch (error) {
    process.stderr.write(`demo: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  const { urls } = demo;
  const docsPort = new URL(urls.docs).port;
  const alias = urls.docs.includes('127.0.0.1') ? ` (or http://localhost:${docsPort}/)` : '';
  process.stdout.write(
    `\ntry-it-console demo\n` +
      `  Docs site         ${urls.docs}${alias}\n` +
      `    standalone bundle   ${urls.docs}\n` +
      `    npm import          ${urls.docs}npm-import.html\n` +
      `    <code-snippet>      ${urls.docs}code-snippet.html\n` +
      `  Sample API        ${urls.api}/   (no CORS headers: pages reach it through the proxy)\n` +
      `  CORS proxy        ${urls.proxy}   (allow-private: local development only)\n` +
      `  Webhook receiver  ${urls.receiver}\n\n` +
      `Press Ctrl+C to stop.\n`,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      // A second Ctrl+C means "now": skip waiting for webhook retries.
      if (stopping) return resolve(130);
      stopping = true;
      process.stdout.write(`\n${signal}: stopping the demo…\n`);
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
  });
}
