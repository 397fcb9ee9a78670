// A front-end project that bundles the package (esbuild here; Vite, Rollup and webpack read package.json
// `sideEffects` the same way): a side-effect import of a browser entry must keep the code that defines the elements,
// and must bring nothing of Node. Runs after `npm run build` (npm test builds first).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { consumerProject } from './consumer-support/consumer-project.js';

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
    project = consumerProject('try-it-consumer-bundler-', { name: 'consumer-site', type: 'module' }, 'dist/try-it-console.bundle.js');
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
