// `npm start` skips the build when dist/ was built from the current sources: the fingerprint must change with
// every input, and a build that fails or is cut short must leave no stamp behind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { BUILD_INPUTS, buildWithStamp, isBuildCurrent, sourceFingerprint } from '../../scripts/build-freshness.mjs';

const repository = new URL('../..', import.meta.url).pathname;

const INPUTS = ['src', 'package.json'];
const OUTPUTS = ['dist/index.js'];
const roots: string[] = [];

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'build-freshness-'));
  roots.push(root);
  mkdirSync(join(root, 'src', 'core'), { recursive: true });
  writeFileSync(join(root, 'src', 'core', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), '{"name":"x"}\n');
  return root;
}

// Stands in for `npm run build`: writes the outputs, or fails having written part of them.
function fakeBuild(root: string, succeeds: boolean): () => boolean {
  return () => {
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', 'index.js'), succeeds ? 'export {};\n' : 'export {');
    return succeeds;
  };
}

function current(root: string): boolean {
  return isBuildCurrent(root, sourceFingerprint(root, INPUTS), OUTPUTS);
}

describe('build freshness', () => {
  let root: string;
  beforeEach(() => {
    root = project();
  });
  after(() => {
    for (const dir of roots) rmSync(dir, { recursive: true, force: true });
  });

  it('counts a successful build as current until an input changes', () => {
    assert.equal(current(root), false, 'never built');
    assert.equal(buildWithStamp(root, fakeBuild(root, true), sourceFingerprint(root, INPUTS)), true);
    assert.equal(current(root), true);
    writeFileSync(join(root, 'src', 'core', 'a.ts'), 'export const a = 2;\n');
    assert.equal(current(root), false, 'an edited source');
  });

  it('notices an added, a removed and a renamed source', () => {
    const build = () => buildWithStamp(root, fakeBuild(root, true), sourceFingerprint(root, INPUTS));
    build();
    writeFileSync(join(root, 'src', 'core', 'b.ts'), '');
    assert.equal(current(root), false, 'an added file, even empty');
    build();
    unlinkSync(join(root, 'src', 'core', 'b.ts'));
    assert.equal(current(root), false, 'a removed file');
    build();
    writeFileSync(join(root, 'src', 'core', 'c.ts'), 'export const a = 1;\n');
    unlinkSync(join(root, 'src', 'core', 'a.ts'));
    assert.equal(current(root), false, 'the same bytes under another name');
  });

  it('builds again after a failed build, even when the sources are back as they were', () => {
    buildWithStamp(root, fakeBuild(root, true), sourceFingerprint(root, INPUTS));
    assert.equal(buildWithStamp(root, fakeBuild(root, false), sourceFingerprint(root, INPUTS)), false);
    assert.equal(current(root), false, 'the failed build left a broken dist/index.js');
  });

  it('builds again when an output is gone', () => {
    buildWithStamp(root, fakeBuild(root, true), sourceFingerprint(root, INPUTS));
    unlinkSync(join(root, 'dist', 'index.js'));
    assert.equal(current(root), false);
  });

  it('fingerprints every file the real build reads, and npm run build removes the stamp first', () => {
    const manifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // `tsc -p <config>` for each project, rollup's and the manifest analyzer's default config files.
    const read = [...manifest.scripts.build!.matchAll(/tsc -p (\S+)/g)].map((match) => match[1]!);
    assert.ok(read.length >= 2, manifest.scripts.build);
    for (const input of [...read, 'rollup.config.mjs', 'custom-elements-manifest.config.mjs', 'src', 'package-lock.json']) assert.ok(BUILD_INPUTS.includes(input), input);
    for (const input of BUILD_INPUTS) assert.ok(existsSync(join(repository, input)), `${input} is listed but does not exist`);
    // A direct `npm run build` interrupted with the sources unchanged must not leave the old stamp standing.
    copyFileSync(join(repository, 'package.json'), join(root, 'package.json'));
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', '.build-fingerprint'), 'stale');
    execFileSync('npm', ['run', '--silent', 'prebuild'], { cwd: root, stdio: 'ignore', timeout: 60_000 });
    assert.equal(existsSync(join(root, 'dist', '.build-fingerprint')), false);
  });
});
