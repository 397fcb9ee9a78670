// The standalone bundle's own Rollup plugins shrink it without changing what runs: html`` templates lose only
// source indentation, and tsc's `__decorate` helper is kept once instead of once per element.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import ts from 'typescript';
import { minifyHtmlLiterals, minifyHtmlQuasis } from '../../scripts/minify-html-literals.mjs';
import { shareDecorateHelper } from '../../scripts/share-decorate-helper.mjs';

const directories: string[] = [];
after(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** Writes the files into a fresh directory and returns it. */
function project(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'bundle-build-plugins-'));
  directories.push(directory);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  return directory;
}

async function bundle(input: string, plugins: Parameters<typeof rollup>[0]['plugins']): Promise<string> {
  const build = await rollup({ input, plugins, external: ['lit'], onwarn: () => {} });
  const { output } = await build.generate({ format: 'es' });
  await build.close();
  return output[0].code;
}

describe('minifyHtmlQuasis', () => {
  it('keeps only the line breaks of a run that holds one, in text and between attributes', () => {
    assert.deepEqual(minifyHtmlQuasis(['\n    <section class="a">\n      <h2\n        id="t">Title</h2>\n      ', '\n    </section>\n  ']), [
      '\n<section class="a">\n<h2\nid="t">Title</h2>\n',
      '\n</section>\n',
    ]);
  });

  it('keeps every run without a line break: spaces between words and bindings are content', () => {
    const quasis = ['<b>a</b> <i>b</i>  ', ' and ', '\t'];
    assert.deepEqual(minifyHtmlQuasis(quasis), quasis);
  });

  it('keeps a no-break space beside a line break: only HTML white space is indentation', () => {
    assert.deepEqual(minifyHtmlQuasis(['<p>a\u00a0\n   b</p>']), ['<p>a\u00a0\nb</p>']);
  });

  it('keeps the text of <pre> and <textarea> as written', () => {
    assert.deepEqual(minifyHtmlQuasis(['<pre>\n  indented\n    more\n</pre>\n  <p>x</p>']), ['<pre>\n  indented\n    more\n</pre>\n<p>x</p>']);
    assert.deepEqual(minifyHtmlQuasis(['<textarea\n    rows="2">\n  kept\n</textarea>']), ['<textarea\nrows="2">\n  kept\n</textarea>']);
  });

  it('keeps quoted attribute values as written, across a binding too', () => {
    const quasis = ['<p title="one\n    two" class="', '\n    x">'];
    assert.deepEqual(minifyHtmlQuasis(quasis), quasis);
  });

  it('drops an HTML comment without a binding and keeps one a binding splits', () => {
    assert.deepEqual(minifyHtmlQuasis(['<!-- a note for readers -->\n  <p>x</p>']), ['\n<p>x</p>']);
    assert.deepEqual(minifyHtmlQuasis(['<!-- ', '\n   -->\n  <p>']), ['<!-- ', '\n   -->\n<p>']);
  });
});

describe('minifyHtmlLiterals', () => {
  it("minifies the templates of lit's html and no other tag named html", async () => {
    const directory = project({
      'element.js': "import { html } from 'lit';\nexport const view = (x) => html`\n    <p>\n      ${x}\n    </p>\n  `;\n",
      'other.js': 'const html = (strings) => strings.raw.join("|");\nexport const text = html`\n    <p>\n      kept\n    </p>`;\n',
      'main.js': "export { view } from './element.js';\nexport { text } from './other.js';\n",
    });
    const code = await bundle(join(directory, 'main.js'), [minifyHtmlLiterals({ include: /element\.js$|other\.js$/ })]);
    // Rollup renames one of the two `html`s apart.
    assert.match(code, /html(?:\$1)?`\n<p>\n\$\{x\}\n<\/p>\n`/);
    assert.ok(code.includes('html`\n    <p>\n      kept\n    </p>`'), code);
  });
});

describe('shareDecorateHelper', () => {
  // Each module as tsc compiles it for the build, with the project's own options: a tsc, or a setting, that changes
  // the helper's text shows here.
  const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  const { options } = ts.parseJsonConfigFileContent(ts.readConfigFile(tsconfig, ts.sys.readFile).config, ts.sys, dirname(tsconfig));
  // `.mts`: an ES module, as the package's "type": "module" makes each of src/ under NodeNext.
  const compile = (source: string) => ts.transpileModule(source, { compilerOptions: options, fileName: 'element.mts' }).outputText;
  const element = (name: string) =>
    compile(`const mark = (target: object, key: string) => { (target as Record<string, unknown>)[key + 'Marked'] = true; };\nexport class ${name} { @mark value = 1; }\n`);

  it('leaves one copy of the helper, and the decorators still run', async () => {
    const files = { 'first.js': element('First'), 'second.js': element('Second'), 'main.js': "export { First } from './first.js';\nexport { Second } from './second.js';\n" };
    assert.ok(files['first.js'].includes('var __decorate = '), 'tsc wrote its helper into the module');
    const directory = project(files);
    const without = await bundle(join(directory, 'main.js'), []);
    const shared = await bundle(join(directory, 'main.js'), [shareDecorateHelper()]);
    const copies = (code: string) => code.match(/Reflect\.decorate\(decorators/g)?.length ?? 0;
    assert.equal(copies(without), 2);
    assert.equal(copies(shared), 1);
    writeFileSync(join(directory, 'shared-bundle.mjs'), shared);
    const { First, Second } = (await import(join(directory, 'shared-bundle.mjs'))) as Record<string, { prototype: Record<string, unknown> }>;
    assert.equal(First!.prototype.valueMarked, true);
    assert.equal(Second!.prototype.valueMarked, true);
  });
});
