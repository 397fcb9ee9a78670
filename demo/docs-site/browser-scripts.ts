// The pages' own TypeScript (the npm-import example and the webhook panel), bundled in memory when the demo
// starts, exactly as a site's build would bundle `import 'try-it-console'`.
import { join } from 'node:path';
import { build } from 'esbuild';

/** Served as `/assets/<name>`, built from `demo/<source>`. */
export const BROWSER_SCRIPTS: Readonly<Record<string, string>> = {
  'npm-import.js': 'npm-import.ts',
  'webhook-panel.js': 'webhook-panel.ts',
  'theme-switch.js': 'theme-switch.ts',
  'try-it-buttons.js': 'try-it-buttons.ts',
};

/** A page script did not bundle; `errors` are esbuild's messages. */
export class BrowserScriptError extends Error {
  readonly code = 'ERR_DEMO_BROWSER_SCRIPT';

  constructor(readonly errors: string[], options?: { cause?: unknown }) {
    super(`The demo's page scripts did not bundle:\n  ${errors.join('\n  ')}`, options);
    this.name = 'BrowserScriptError';
  }
}

export async function bundleBrowserScripts(demoDir: string): Promise<Map<string, Buffer>> {
  const entryPoints = Object.entries(BROWSER_SCRIPTS).map(([out, source]) => ({ in: join(demoDir, source), out: out.replace(/\.js$/, '') }));
  try {
    const result = await build({
      entryPoints,
      outdir: join(demoDir, 'assets'),
      bundle: true,
      // Each in a scope of its own, so that one can also run as a classic script (theme-switch.js, in <head>).
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      sourcemap: 'inline',
      write: false,
      logLevel: 'silent',
    });
    return new Map(result.outputFiles.map((file) => [file.path.slice(file.path.lastIndexOf('/') + 1), Buffer.from(file.contents)]));
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
    if (!errors) throw error;
    throw new BrowserScriptError(errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text)), { cause: error });
  }
}
