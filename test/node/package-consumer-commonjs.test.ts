// A TypeScript backend that compiles to CommonJS, as NestJS projects do (`"module": "commonjs"`, whose default
// moduleResolution is node10 and reads no `exports` map): its types must resolve, and its compiled require() calls
// must run on every Node version package.json `engines` admits. Runs after `npm run build` (npm test builds first).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, consumerProject, tscOutput } from './consumer-support/consumer-project.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const tags = ['code-snippet', 'env-picker', 'request-history', 'try-it-console'];
let project = '';

function tsc(config: Record<string, unknown>, files: string[]): void {
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { typeRoots: [join(ROOT, 'node_modules/@types')], ...config }, files }));
  const output = tscOutput(project);
  if (output) assert.fail(`tsc failed:\n${output}`);
}

/** Whether `version` runs require() of an ES module without a flag (Node 20.19, 22.12 and 23.0 turned it on). */
function requiresEsmByDefault([major, minor]: readonly number[]): boolean {
  if (major === 20) return minor! >= 19;
  if (major === 22) return minor! >= 12;
  return major! >= 23;
}

/** The versions a `^x.y.z || >=x.y.z || x.y.z` range admits, among `candidates`; any other syntax fails the test. */
function admitted(range: string, candidates: readonly (readonly number[])[]): (readonly number[])[] {
  const compare = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  const clauses = range.split('||').map((clause) => {
    const match = /^\s*(\^|>=)?(\d+)\.(\d+)\.(\d+)\s*$/.exec(clause);
    assert.ok(match, `engines.node clause '${clause}' is not a form this test reads; teach it`);
    return { operator: match[1] ?? '=', version: [Number(match[2]), Number(match[3]), Number(match[4])] };
  });
  return candidates.filter((candidate) => clauses.some(({ operator, version }) =>
    operator === '=' ? compare(candidate, version) === 0
      : operator === '>=' ? compare(candidate, version) >= 0
        : candidate[0] === version[0] && compare(candidate, version) >= 0));
}

describe('a CommonJS TypeScript backend (NestJS-style) using the package', () => {
  before(() => {
    // No "type": CommonJS, as npm init and NestJS leave it.
    project = consumerProject('try-it-consumer-cjs-', { name: 'consumer-cjs' }, 'dist/webhook/index.js');
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('type-checks every entry under "module": "commonjs" (moduleResolution node10), skipLibCheck off', () => {
    writeFileSync(join(project, 'entries.ts'), `
      import { Notifier, WebhookChannel, createWebhookHandler, verifySignature } from 'try-it-console/webhook';
      import { startProxy, type RunningProxy } from 'try-it-console/proxy';
      import { EnvironmentManager, type ConsoleConfig } from 'try-it-console/core';
      import type { TryItConsole, TicResponseEvent } from 'try-it-console';
      import type { TryItConsole as FromBundle } from 'try-it-console/bundle';
      ${tags.map((tag, index) => `import type * as Element${index} from 'try-it-console/components/${tag}';`).join('\n')}
      export type Used = [Notifier, WebhookChannel, typeof createWebhookHandler, typeof verifySignature, typeof startProxy, RunningProxy,
        EnvironmentManager, ConsoleConfig, TryItConsole, TicResponseEvent, FromBundle, ${tags.map((_, index) => `typeof Element${index}`).join(', ')}];
    `);
    tsc({ target: 'ES2022', module: 'commonjs', lib: ['ES2022', 'DOM'], types: ['node'], strict: true, esModuleInterop: true, skipLibCheck: false, noEmit: true }, ['entries.ts']);
  });

  it('compiles to require() calls that sign, send, verify and proxy on this Node', () => {
    writeFileSync(join(project, 'server.ts'), `
      import { createServer, request } from 'node:http';
      import type { AddressInfo } from 'node:net';
      import { Notifier, WebhookChannel, createWebhookHandler, newMessage, verifySignature } from 'try-it-console/webhook';
      import { startProxy } from 'try-it-console/proxy';

      async function main(): Promise<void> {
        const received: unknown[] = [];
        const receiver = createServer(createWebhookHandler({ secret: 'whsec', onEvent: (event) => { received.push(event.event); } }));
        await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
        const notifier = new Notifier({ retry: { attempts: 1 } });
        notifier.registerChannel('webhook', new WebhookChannel({ url: \`http://127.0.0.1:\${(receiver.address() as AddressInfo).port}/\`, secret: 'whsec' }));
        const results = await notifier.send({ type: 'user', id: 42 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('user.created').payload({ a: 1 }) });
        await notifier.close();
        receiver.close();
        const proxy = await startProxy({ port: 0, host: '127.0.0.1' });
        const health = await new Promise<number | undefined>((done, fail) => request(proxy.url).on('response', (response) => { response.resume(); done(response.statusCode); }).on('error', fail).end());
        await proxy.close();
        const unsigned = await verifySignature('{}', undefined, 'whsec');
        console.log(JSON.stringify({ sent: results.map(({ ok, status }) => ({ ok, status })), received, health, unsigned }));
      }
      main().catch((error) => { console.error(error); process.exitCode = 1; });
    `);
    tsc({ target: 'ES2022', module: 'commonjs', lib: ['ES2022'], types: ['node'], strict: true, esModuleInterop: true, skipLibCheck: false, outDir: 'out' }, ['server.ts']);
    const compiled = readFileSync(join(project, 'out/server.js'), 'utf8');
    assert.match(compiled, /require\("try-it-console\/webhook"\)/);
    const output = execFileSync(process.execPath, ['out/server.js'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    assert.deepEqual(JSON.parse(output), { sent: [{ ok: true, status: 204 }], received: ['user.created'], health: 200, unsigned: false });
  });

  it('admits in engines.node only Node versions whose require() loads ES modules', () => {
    assert.ok(process.features.require_module, 'this Node runs require(esm) only behind a flag: older than engines.node admits?');
    const candidates = [[18, 20, 0], [20, 18, 1], [20, 18, 3], [20, 19, 0], [20, 20, 2], [21, 7, 3], [22, 0, 0], [22, 11, 0], [22, 12, 0], [23, 0, 0], [24, 0, 0], [25, 1, 0]] as const;
    const range = manifest.engines.node;
    const wrong = admitted(range, candidates).filter((version) => !requiresEsmByDefault(version)).map((version) => version.join('.'));
    assert.deepEqual(wrong, [], `engines.node '${range}' admits Node versions where require('try-it-console/webhook') fails with ERR_REQUIRE_ESM`);
    const current = process.versions.node.split('.').map(Number);
    assert.equal(admitted(range, [current]).length, 1, `engines.node '${range}' does not admit this Node, ${process.versions.node}`);
  });
});
