// Vue, React, Svelte and Angular for the browser tests, as an app's bundler gives them to a page: esbuild bundles them
// once (browser export conditions, development builds, process.env.NODE_ENV defined), one shared copy of each
// framework, served under /__frameworks/; and .svelte files compiled by svelte/compiler when requested. The dev server
// alone cannot: React is CommonJS reading process.env, Svelte's root export is its server build without the "browser"
// condition, and Vue's default entry reads process.env and its build flags. Angular could be served file by file, but
// bundled its four entries share one copy of core, rxjs and tslib in a few chunks instead of rxjs's hundreds of modules.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { compile } from 'svelte/compiler';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** An ES module re-exporting a CommonJS package by name, as a bundler's interop lets `import { createRoot }` work. */
function commonJsEntry(name) {
  const names = Object.keys(require(name)).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default');
  return `import m from '${name}'; export default m; export const { ${names.join(', ')} } = m;`;
}

/** What each bare import names in the browser, as the source of the module served for it. */
const ENTRIES = {
  // The runtime with the template compiler, as an app compiling templates in the page uses it.
  vue: `export * from 'vue/dist/vue.esm-bundler.js';`,
  react: commonJsEntry('react'),
  'react-dom': commonJsEntry('react-dom'),
  'react-dom/client': commonJsEntry('react-dom/client'),
  'react-dom/server': commonJsEntry('react-dom/server'),
  svelte: `export * from 'svelte';`,
  // What compiled components import.
  'svelte/internal/client': `export * from 'svelte/internal/client';`,
  'svelte/internal/disclose-version': `import 'svelte/internal/disclose-version';`,
  'svelte/internal/flags/legacy': `import 'svelte/internal/flags/legacy';`,
  'svelte/internal/flags/async': `import 'svelte/internal/flags/async';`,
  // Angular in development mode; @angular/compiler compiles the templates in the page (JIT), as no Angular CLI runs.
  '@angular/core': `export * from '@angular/core';`,
  '@angular/common': `export * from '@angular/common';`,
  '@angular/compiler': `export * from '@angular/compiler';`,
  '@angular/platform-browser': `export * from '@angular/platform-browser';`,
};

const servedName = (specifier) => `/__frameworks/${specifier.replaceAll('/', '-')}.js`;

/** The bundles by path; one build, entries sharing chunks, so that a framework's state exists once on the page. */
async function bundleFrameworks() {
  const result = await build({
    entryPoints: Object.keys(ENTRIES).map((specifier) => ({ in: `entry:${specifier}`, out: specifier.replaceAll('/', '-') })),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['development'],
    target: 'es2022',
    outdir: '/__frameworks',
    write: false,
    logLevel: 'silent',
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    plugins: [
      {
        name: 'framework-entries',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^entry:/ }, ({ path }) => ({ path: path.slice('entry:'.length), namespace: 'entry' }));
          esbuild.onLoad({ filter: /.*/, namespace: 'entry' }, ({ path }) => ({ contents: ENTRIES[path], resolveDir: root, loader: 'js' }));
        },
      },
    ],
  });
  return new Map(result.outputFiles.map((file) => [file.path, file.text]));
}

export function frameworksPlugin() {
  let bundles;
  return {
    name: 'try-it-frameworks',
    resolveMimeType(context) {
      if (context.path.endsWith('.svelte')) return 'js';
    },
    resolveImport({ source }) {
      if (Object.hasOwn(ENTRIES, source)) return servedName(source);
    },
    async serve(context) {
      if (!context.path.startsWith('/__frameworks/')) return undefined;
      bundles ??= bundleFrameworks();
      const body = (await bundles).get(context.path);
      return body === undefined ? undefined : { body, type: 'js' };
    },
    transform(context) {
      if (!context.path.endsWith('.svelte')) return undefined;
      const { js, warnings } = compile(context.body, { filename: context.path, generate: 'client', dev: true });
      if (warnings.length > 0) throw new Error(`${context.path}: ${warnings.map((warning) => warning.message).join('\n')}`);
      return { body: js.code };
    },
  };
}
