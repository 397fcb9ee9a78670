// What `npm pack` (and so `npm publish`) puts in the tarball, built from a copy of this checkout the way a maintainer
// publishes it: a dist/ left over from earlier builds, then the prepack script. Every file the package.json points
// at is inside; nothing else is: no tests, demo, scripts or configuration, and no module the sources no longer have.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const left = new Set(['node_modules', '.git', 'dist', 'scratch', '.cache']);
let copy = '';
let files: string[] = [];
let manifest: Record<string, unknown> = {};

/** Every path a package.json field names, with `components/*` spelt out for each element. */
function namedPaths(): string[] {
  const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : []);
  const tags = ['code-snippet', 'env-picker', 'request-history', 'try-it-console'];
  return [manifest.main, manifest.module, manifest.types, manifest.bin, manifest.exports, manifest.typesVersions, manifest.sideEffects]
    .flatMap(strings)
    .flatMap((path) => (path.includes('*') ? tags.map((tag) => path.replaceAll('*', tag)) : [path]))
    .map((path) => path.replace(/^\.\//, ''));
}

describe('the packed tarball', () => {
  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'try-it-pack-'));
    cpSync(root, copy, { recursive: true, filter: (source) => !left.has(relative(root, source).split(sep)[0]!) });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    // What an earlier build left behind: a module since removed from src/.
    mkdirSync(join(copy, 'dist/core'), { recursive: true });
    writeFileSync(join(copy, 'dist/core/removed-module.js'), 'export const removed = true;\n');
    writeFileSync(join(copy, 'dist/core/removed-module.d.ts'), 'export declare const removed = true;\n');
    execFileSync('npm', ['run', '--silent', 'prepack'], { cwd: copy, stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: copy, encoding: 'utf8', timeout: 60_000 })) as [{ files: { path: string }[] }];
    files = packed.files.map((file) => file.path);
    manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  it('holds the licence text package.json names', () => {
    assert.equal(manifest.license, 'MIT');
    assert.ok(files.includes('LICENSE'), 'the MIT licence asks for its text to travel with every copy');
  });

  it('holds every file package.json names: entries, types, bin and side-effect modules', () => {
    const missing = namedPaths().filter((path) => !files.includes(path));
    assert.deepEqual(missing, []);
  });

  it('holds only the built package, the sources its maps name, the README, the licence and the manifests', () => {
    const stray = files.filter((path) => !/^(dist|src)\//.test(path) && !['package.json', 'README.md', 'LICENSE', 'custom-elements.json'].includes(path));
    assert.deepEqual(stray, []);
    assert.deepEqual(files.filter((path) => /\.(test|spec)\.|(^|\/)(test|demo|bench|scripts)\/|\.env|\.pem$|\.key$/.test(path)), []);
  });

  it('holds no built module whose source is gone', () => {
    const orphans = files
      .filter((path) => path.startsWith('dist/') && path.endsWith('.js') && path !== 'dist/try-it-console.bundle.js')
      .filter((path) => !files.includes(path.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')));
    assert.deepEqual(orphans, []);
    assert.ok(!files.includes('dist/core/removed-module.d.ts'));
  });
});
