// A separate project that depends on this package, as npm would lay it out: the exports map and the
// built files must be enough. Runs after `npm run build` (npm test builds first).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
let project = '';

function runInProject(code: string): string {
  writeFileSync(join(project, 'main.mjs'), code);
  return execFileSync(process.execPath, ['main.mjs'], { cwd: project, encoding: 'utf8' });
}

describe('the published package', () => {
  before(() => {
    assert.ok(existsSync(join(root, 'dist/core/index.js')), 'dist/ is missing: run `npm run build` first (npm test does)');
    project = mkdtempSync(join(tmpdir(), 'try-it-consumer-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', dependencies: { 'try-it-console': '*' } }));
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules/try-it-console'), 'dir');
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('lets a Node project import the core', () => {
    const output = runInProject(`
      import { EnvironmentManager, History, HistoryEntryNotFoundError } from 'try-it-console/core';
      const envs = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } });
      const history = new History({ enabled: true, maxItems: 2 });
      const { id } = history.add({ method: 'GET', url: envs.resolve('{{base_url}}/pets'), status: 200, duration: 5 });
      let notFound = false;
      try { history.get('nope'); } catch (error) { notFound = error instanceof HistoryEntryNotFoundError; }
      console.log(JSON.stringify({ url: history.get(id).url, notFound }));
    `);
    assert.deepEqual(JSON.parse(output), { url: 'https://api.example/pets', notFound: true });
  });

  it('declares types for every export', async () => {
    const { default: manifest } = await import(join(root, 'package.json'), { with: { type: 'json' } });
    const collect = (target: unknown, path: string): string[] => {
      if (typeof target === 'string') return [];
      const conditions = target as Record<string, unknown>;
      const own = 'default' in conditions && typeof conditions.default === 'string' && !('types' in conditions) ? [path] : [];
      return [...own, ...Object.entries(conditions).flatMap(([key, value]) => (key === 'types' ? [] : collect(value, `${path}.${key}`)))];
    };
    const untyped = Object.entries(manifest.exports as Record<string, unknown>)
      .filter(([key]) => key !== './package.json' && !key.endsWith('.json'))
      .flatMap(([key, target]) => (typeof target === 'string' ? [key] : collect(target, key)));
    assert.deepEqual(untyped, []);
    for (const [key, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
      for (const file of JSON.stringify(target).match(/\.\/dist\/[^"*]+(?=")/g) ?? []) {
        assert.ok(existsSync(join(root, file)), `${key} points at ${file}, which the build did not produce`);
      }
    }
  });

  it('type-checks in a Node project without the DOM library: core, webhook and proxy', () => {
    writeFileSync(join(project, 'node-types.ts'), `
      import { RequestEngine, IdbHistoryStore, type ConsoleConfig } from 'try-it-console/core';
      import { Notifier, createWebhookHandler } from 'try-it-console/webhook';
      import { startProxy } from 'try-it-console/proxy';
      const config: ConsoleConfig = { credentials: 'omit' };
      // The README's receiver: onEvent may return anything (push returns a number).
      const queue: unknown[] = [];
      const handler = createWebhookHandler({ secret: 'whsec', onEvent: (event) => queue.push(event) });
      // The README's refusal log.
      const logged = createWebhookHandler({ secret: 'whsec', onEvent: () => {}, onRefused: ({ status, reason }, { request }) => console.warn(\`webhook from \${request.socket.remoteAddress} refused: \${status} \${reason}\`) });
      export const used = [new RequestEngine({ config }), IdbHistoryStore, Notifier, startProxy, handler, logged];
    `);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')], strict: true, noEmit: true, skipLibCheck: false },
      files: ['node-types.ts'],
    }));
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
  });

  it('lets a site load one element alone, and names its custom-elements.json', () => {
    const resolved = JSON.parse(runInProject(`
      console.log(JSON.stringify(['code-snippet', 'env-picker', 'request-history', 'try-it-console'].map((tag) => import.meta.resolve('try-it-console/components/' + tag))));
    `)) as string[];
    for (const [index, tag] of ['code-snippet', 'env-picker', 'request-history', 'try-it-console'].entries()) {
      assert.ok(resolved[index]!.endsWith(`/dist/components/${tag}/${tag}.js`), resolved[index]);
      assert.ok(existsSync(new URL(resolved[index]!)), `${resolved[index]} was not built`);
      assert.ok(existsSync(new URL(resolved[index]!.replace(/\.js$/, '.d.ts'))), `${tag} has no type declarations`);
    }
    const elements = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
    const tags = elements.modules.flatMap((module: { declarations?: { tagName?: string }[] }) => (module.declarations ?? []).map((d) => d.tagName).filter(Boolean));
    assert.deepEqual(tags.sort(), ['code-snippet', 'env-picker', 'request-history', 'try-it-console']);
  });

  it('resolves try-it-console/bundle to the standalone bundle, for a bundler that copies it as an asset', () => {
    const resolved = runInProject(`console.log(import.meta.resolve('try-it-console/bundle'))`).trim();
    assert.ok(resolved.endsWith('/dist/try-it-console.bundle.js'), resolved);
    assert.ok(existsSync(new URL(resolved)), `${resolved} was not built`);
  });

  it('lists in custom-elements.json every CSS custom property an element reads, with a description', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
    const elements = new Map<string, { name: string; description?: string }[]>(
      manifest.modules.flatMap((module: { declarations?: { tagName?: string; cssProperties?: [] }[] }) => (module.declarations ?? []).filter((d) => d.tagName).map((d) => [d.tagName, d.cssProperties ?? []])),
    );
    const readBy = (dir: string) => {
      const files = readdirSync(join(root, 'src/components', dir), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
      return new Set(files.flatMap((file) => [...readFileSync(join(root, 'src/components', dir, file), 'utf8').matchAll(/var\((--tic-[\w-]+)/g)].map((match) => match[1]!)));
    };
    const readIn = (file: string) => [...readFileSync(join(root, 'src/components', file), 'utf8').matchAll(/var\((--tic-[\w-]+)/g)].map((match) => match[1]!);
    const theme = readIn('theme.styles.ts');
    assert.ok(theme.length > 10);
    for (const [tag, properties] of elements) {
      const listed = properties.map((property) => property.name);
      for (const property of properties) assert.ok(property.description, `${tag}: ${property.name} has no description`);
      const expected = [...theme, ...readBy(tag), ...(tag === 'code-snippet' ? readIn('highlight.styles.ts') : [])];
      for (const name of expected) assert.ok(listed.includes(name), `${tag} does not list ${name}`);
    }
    // The console renders the other three, whose properties reach inside it.
    assert.deepEqual(new Set(elements.get('try-it-console')!.map((property) => property.name)), readBy('.'));
  });

  it('keeps the core free of Node built-ins and of the DOM-only element code', async () => {
    const { build } = await import('esbuild');
    const result = await build({ entryPoints: [join(root, 'src/core/index.ts')], bundle: true, platform: 'neutral', write: false, logLevel: 'silent', mainFields: ['module', 'main'] });
    const code = result.outputFiles[0]!.text;
    assert.doesNotMatch(code, /from\s*["']node:/);
    assert.doesNotMatch(code, /\bcustomElements\b|\bdocument\./);
  });
});
