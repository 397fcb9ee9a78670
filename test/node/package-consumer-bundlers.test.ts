// A front-end project that bundles the package (esbuild here; Vite, Rollup and webpack read package.json
// `sideEffects` the same way): a side-effect import of a browser entry must keep the code that defines the elements,
// and must bring nothing of Node. Runs after `npm run build` (npm test builds first).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const tags = ['code-snippet', 'env-picker', 'request-history', 'try-it-console'];
let project = '';

/** `import '<specifier>';` bundled for browsers as a site's build would, minified, so that unused code goes. */
async function bundle(specifier: string) {
  const result = await build({
    stdin: { contents: `import '${specifier}';`, resolveDir: project, loader: 'js' },
    bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, metafile: true, logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs), warnings: result.warnings.map((warning) => warning.text) };
}

describe('a front-end build importing the package', () => {
  before(() => {
    assert.ok(existsSync(join(root, 'dist/try-it-console.bundle.js')), 'dist/ is missing: run `npm run build` first (npm test does)');
    project = mkdtempSync(join(tmpdir(), 'try-it-consumer-bundler-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer-site', private: true, type: 'module', dependencies: { 'try-it-console': '*' } }));
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules/try-it-console'), 'dir');
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  const entries: [string, string[]][] = [
    ['try-it-console', tags],
    ['try-it-console/bundle', tags],
    ...tags.map((tag): [string, string[]] => [`try-it-console/components/${tag}`, tag === 'try-it-console' ? tags : [tag]]),
  ];
  for (const [specifier, defined] of entries) {
    it(`keeps what \`import '${specifier}'\` defines, and nothing of Node`, async () => {
      const { code, inputs, warnings } = await bundle(specifier);
      // esbuild says "Ignoring this import because … was marked as having no side effects" before dropping it.
      assert.deepEqual(warnings, []);
      assert.ok(code.includes('customElements'), `${specifier}: the bundle has no customElements.define left (${code.length} bytes)`);
      for (const tag of defined) assert.ok(code.includes(`"${tag}"`), `${specifier}: <${tag}> is not defined by the bundle`);
      assert.deepEqual(inputs.filter((input) => /\/(webhook|proxy)\/|node_modules\/undici\//.test(input)), [], `${specifier} pulls in Node-only code`);
    });
  }
});
