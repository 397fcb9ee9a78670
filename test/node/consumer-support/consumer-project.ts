// A throwaway project that uses this checkout as the installed `try-it-console`, and the TypeScript compiler run over
// it, for the tests that check the package as its consumers meet it. Runs after `npm run build` (npm test builds first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The checkout, as the package root. */
export const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * A project in a new temporary folder with `manifest` as its package.json and the checkout linked as
 * `node_modules/try-it-console`, as `npm install` of a local folder links it. `built` is a file of `dist/` the test needs.
 */
export function consumerProject(prefix: string, manifest: Record<string, unknown>, built: string): string {
  assert.ok(existsSync(join(ROOT, built)), 'dist/ is missing: run `npm run build` first (npm test does)');
  const project = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, ...manifest, dependencies: { 'try-it-console': '*' } }));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules/try-it-console'), 'dir');
  return project;
}

/**
 * What tsc reports for the tsconfig.json in `project`: '' when it compiles, else its output. A tsc that did not get as
 * far as type errors (not found, crashed) throws, so it cannot pass for a clean compile.
 */
export function tscOutput(project: string): string {
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    return '';
  } catch (error) {
    const output = String((error as { stdout?: unknown }).stdout ?? '');
    if (!/error TS\d+/.test(output)) throw error;
    return output;
  }
}
