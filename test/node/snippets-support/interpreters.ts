// Runs a snippet file in its real interpreter with a bounded time, and returns what it printed.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { SnippetLanguage } from '../../../src/core/index.js';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const EXTENSIONS: Record<SnippetLanguage, string> = { curl: 'sh', javascript: 'mjs', go: 'go', python: 'py', php: 'php' };

/** Time limit per run; Go's first build of net/http into an empty cache is the slow case. */
export const RUN_TIMEOUT_MS: Record<SnippetLanguage, number> = { curl: 20_000, javascript: 20_000, go: 180_000, python: 20_000, php: 20_000 };

/** The environment for every run: no proxies, no user curl config, a Go cache that survives between runs. */
export function interpreterEnvironment(workDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/proxy$/i.test(name)) env[name] = value;
  }
  const curlHome = join(workDir, 'curl-home');
  mkdirSync(curlHome, { recursive: true });
  env.CURL_HOME = curlHome;
  env.HISTFILE = '/dev/null';
  env.GOPROXY = 'off';
  env.GOFLAGS = '';
  env.GO111MODULE = 'off';
  if (!env.GOCACHE && !env.HOME && !env.XDG_CACHE_HOME) env.GOCACHE = join(tmpdir(), 'try-it-console-go-cache');
  return env;
}

/**
 * Writes `snippet` to `<dir>/<name>.<ext>` and runs it. curl snippets are fed to an interactive `shell`, as pasted.
 */
export function runSnippet(language: SnippetLanguage, snippet: string, dir: string, name: string, env: NodeJS.ProcessEnv, shell: 'bash' | 'zsh' = 'bash'): Promise<RunResult> {
  const file = join(dir, `${name}.${EXTENSIONS[language]}`);
  writeFileSync(file, language === 'curl' ? `${snippet}\n` : snippet);
  switch (language) {
    // -i: history expansion of `!` is on, as in a terminal; the snippet arrives on stdin like a paste. No startup files.
    case 'curl': return run(shell, shell === 'bash' ? ['--norc', '--noprofile', '-i'] : ['-f', '-i'], env, RUN_TIMEOUT_MS.curl, file);
    case 'javascript': return run(process.execPath, [file], env, RUN_TIMEOUT_MS.javascript);
    case 'go': return run('go', ['run', file], env, RUN_TIMEOUT_MS.go);
    case 'python': return run('/usr/bin/python3', [file], env, RUN_TIMEOUT_MS.python);
    case 'php': return run('php', [file], env, RUN_TIMEOUT_MS.php);
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, stdinFile?: string): Promise<RunResult> {
  const stdin = stdinFile === undefined ? 'ignore' : openSync(stdinFile, 'r');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: [stdin, 'pipe', 'pipe'], detached: true });
    if (typeof stdin === 'number') closeSync(stdin);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    // Kill the whole process group: `go run` leaves the built program as a child.
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } }, timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), timedOut });
    });
  });
}
