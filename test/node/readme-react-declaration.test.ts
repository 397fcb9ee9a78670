// The README's JSX declaration for React, type-checked as a React app in TypeScript would use it: the attributes a
// docs page sets on a console (theme, label, heading-level and the preset) must be accepted, and a misspelt one not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** The README's ```ts block that declares the elements for React's JSX. */
function readmeDeclaration(): string {
  const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```ts\n([^]*?)```/g)].map((match) => match[1]!);
  const declaration = blocks.find((block) => block.includes("declare module 'react'"));
  assert.ok(declaration, 'the README declares the elements for React');
  return declaration;
}

/** tsc's complaints about `app` (a .tsx file) beside the declaration, with try-it-console resolved to the build. */
function typeErrors(app: string): string {
  const folder = mkdtempSync(join(root, 'dist', '.react-types-'));
  try {
    writeFileSync(join(folder, 'custom-elements.d.ts'), readmeDeclaration());
    writeFileSync(join(folder, 'app.tsx'), app);
    const config = {
      compilerOptions: { strict: true, noEmit: true, jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', target: 'es2022', skipLibCheck: true, types: [], paths: { 'try-it-console': [join(root, 'dist/index.d.ts')] } },
      files: ['custom-elements.d.ts', 'app.tsx'],
    };
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(config));
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', folder], { encoding: 'utf8', timeout: 120_000 });
      return '';
    } catch (error) {
      return (error as { stdout?: string }).stdout ?? String(error);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("the README's React declaration", () => {
  it('types the attributes a docs page sets on a console, and refuses one the console does not have', () => {
    const app = (attributes: string) => `
      import type { TicResponseEvent } from 'try-it-console';
      export const Console = () => <try-it-console ${attributes} method="POST" url="{{base_url}}/pets" body='{"name":"Rex"}' headers='{"Accept":"application/json"}' ontic-response={(event: TicResponseEvent) => event.response.status} />;
    `;
    assert.equal(typeErrors(app('theme="dark" label="List pets" heading-level="3"')), '');
    assert.match(typeErrors(app('thme="dark"')), /Property 'thme' does not exist/);
  });
});
