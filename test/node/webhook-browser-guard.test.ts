// try-it-console/webhook is Node-only: a browser build must fail loudly, and the browser entry must not pull it in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';

describe('webhook in browsers', () => {
  it('the browser module throws a clear Error at import time', async () => {
    await assert.rejects(import('../../src/webhook/not-in-browser.js'), /try-it-console\/webhook is Node-only/);
  });

  it('a browser build of `import "try-it-console/webhook"` resolves to that module, not the Node code', async () => {
    const result = await build({
      stdin: { contents: "import 'try-it-console/webhook';", resolveDir: process.cwd() },
      bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent',
    });
    assert.deepEqual(Object.keys(result.metafile.inputs).filter((f) => f !== '<stdin>'), ['dist/webhook/not-in-browser.js']);
  });

  it('the browser entry never reaches the webhook code, undici or Node built-ins', async () => {
    // platform: 'browser' makes any node: import a build error.
    const result = await build({ entryPoints: ['src/index.ts'], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.includes('src/index.ts'));
    assert.deepEqual(inputs.filter((f) => f.includes('src/webhook/') || f.includes('node_modules/undici/')), []);
  });
});
