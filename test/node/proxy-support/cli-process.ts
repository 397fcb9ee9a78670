// `try-it-proxy` in a child process, for the tests that need the real command or an environment of its own
// (PORT, NODE_EXTRA_CA_CERTS). Bounded: the process is killed once LIMIT_MS pass, whatever the test does.
import { spawn } from 'node:child_process';

const LIMIT_MS = 15_000;

/** `try-it-proxy` listening, until `stop()`. */
export interface RunningCli {
  url: string;
  port: number;
  stderr(): string;
  /** The first `count` lines of stderr, once written (fewer if the process ends first). */
  logLines(count: number): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Starts `try-it-proxy` with `args`, its environment this process's plus `env` (a value of `undefined` removes
 * the variable), and resolves once its banner names the URL it listens on.
 */
export async function startCli(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<RunningCli> {
  const environment = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete environment[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: environment });
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = (): string[] => stderr.split('\n').slice(0, -1);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
    });
    return {
      url,
      port: Number(new URL(url).port),
      stderr: () => stderr,
      // Bounded by the process's time limit: the lines come, or the process is killed and its streams close.
      logLines: (count) =>
        new Promise((resolve) => {
          const check = (): void => void (lines().length >= count && resolve(lines().slice(0, count)));
          child.stderr.on('data', check);
          child.once('close', () => resolve(lines()));
          check();
        }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
