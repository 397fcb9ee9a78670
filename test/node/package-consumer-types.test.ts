// A front-end TypeScript project (Vite-style: moduleResolution bundler, the DOM library, no @types/node, skipLibCheck
// off) using the browser entries: the README's Embedding example compiles as written, and each entry, the per-element
// ones alone included, types its elements and their events. Runs after `npm run build` (npm test builds first).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consumerProject, tscOutput } from './consumer-support/consumer-project.js';

let project = '';

/** tsc's errors over `sources` (one file each), each file compiled in its own program so no import helps another. */
function typeErrors(sources: Record<string, string>): string[] {
  return Object.entries(sources).flatMap(([name, source]) => {
    writeFileSync(join(project, name), source);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [],
        strict: true, isolatedModules: true, verbatimModuleSyntax: true, skipLibCheck: false, noEmit: true,
      },
      files: [name],
    }));
    return tscOutput(project).split('\n').filter((line) => /error TS/.test(line));
  });
}

describe('a front-end TypeScript project using the package', () => {
  before(() => {
    project = consumerProject('try-it-consumer-types-', { name: 'consumer-site', type: 'module' }, 'dist/index.d.ts');
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it("compiles the README's npm import example as written", () => {
    assert.deepEqual(typeErrors({
      'readme.ts': `
        import 'try-it-console';
        import type { ConsoleConfig, TicResponseEvent } from 'try-it-console';

        const config: ConsoleConfig = { corsProxy: 'https://proxy.docs.example.com/', environments: [/* … */] };
        const consoleElement = document.querySelector('try-it-console')!;
        consoleElement.config = config;
        consoleElement.addEventListener('tic-response', (event: TicResponseEvent) => console.log(event.response.status));
      `,
    }), []);
  });

  it('types each element and the events it fires from its own entry alone, and from the main and bundle entries', () => {
    const uses: Record<string, string> = {
      'code-snippet': `
        const element = document.createElement('code-snippet');
        element.addEventListener('tic-copy', (event) => { const text: string = event.text; void text; });
        element.addEventListener('tic-language-change', (event) => { const language: 'curl' | 'javascript' | 'go' | 'python' | 'php' = event.language; void language; });
        element.addEventListener('tic-copy', (event) => { const language: 'curl' | 'javascript' | 'go' | 'python' | 'php' = event.language; void language; });`,
      'env-picker': `
        const element = document.createElement('env-picker');
        element.addEventListener('tic-environment-change', (event) => { const name: string = event.name; void name; });
        element.addEventListener('tic-variable-change', (event) => { const environment: string = event.environment; void environment; });`,
      'request-history': `
        const element = document.createElement('request-history');
        element.addEventListener('tic-history-select', (event) => { const url: string = event.entry.url; void url; });
        element.addEventListener('tic-history-delete', (event) => { const id: string | undefined = event.id; void id; });`,
      'try-it-console': `
        const element = document.createElement('try-it-console');
        element.config = { enabled: true };
        element.addEventListener('tic-before-send', (event) => { event.request.url = event.request.url.trim(); });
        element.addEventListener('tic-response', (event) => { const status: number = event.response.status; void status; });
        element.addEventListener('tic-request-error', (event) => { const kind: string = event.error.kind; void kind; });
        // The events of the elements it renders bubble out of it.
        element.addEventListener('tic-copy', (event) => { const text: string = event.text; void text; });
        element.addEventListener('tic-history-select', (event) => { const url: string = event.entry.url; void url; });`,
    };
    const sources = Object.fromEntries([
      ...Object.entries(uses).map(([tag, use]) => [`${tag}.ts`, `import 'try-it-console/components/${tag}';\n${use}\nexport {};\n`]),
      ['main.ts', `import 'try-it-console';\n${Object.values(uses).map((use) => `{${use}\n}`).join('\n')}\nexport {};\n`],
      ['bundle.ts', `import 'try-it-console/bundle';\n${Object.values(uses).map((use) => `{${use}\n}`).join('\n')}\nexport {};\n`],
    ]);
    assert.deepEqual(typeErrors(sources), []);
  });

  it('exports from each per-element entry the event classes it fires, for instanceof and eventName', () => {
    assert.deepEqual(typeErrors({
      'classes.ts': `
        import { CodeSnippet, TicCopyEvent, TicLanguageChangeEvent } from 'try-it-console/components/code-snippet';
        import { EnvPicker, TicEnvironmentChangeEvent, TicVariableChangeEvent } from 'try-it-console/components/env-picker';
        import { RequestHistory, TicHistoryDeleteEvent, TicHistorySelectEvent } from 'try-it-console/components/request-history';
        import { TryItConsole, TicResponseEvent, TicRequestErrorEvent, TicBeforeSendEvent } from 'try-it-console/components/try-it-console';
        export const names: string[] = [TicCopyEvent, TicLanguageChangeEvent, TicEnvironmentChangeEvent, TicVariableChangeEvent, TicHistoryDeleteEvent,
          TicHistorySelectEvent, TicResponseEvent, TicRequestErrorEvent, TicBeforeSendEvent].map((event) => event.eventName);
        export const elements = [CodeSnippet, EnvPicker, RequestHistory, TryItConsole];
      `,
    }), []);
  });
});
