// The standalone bundle for `<script type="module" src="…">` use: everything inside, minified.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { minifyCssLiterals } from './scripts/minify-css-literals.mjs';
import { minifyHtmlLiterals } from './scripts/minify-html-literals.mjs';
import { shareDecorateHelper } from './scripts/share-decorate-helper.mjs';

export default {
  input: 'dist/index.js',
  output: { file: 'dist/try-it-console.bundle.js', format: 'es', sourcemap: true },
  plugins: [
    nodeResolve({ browser: true, exportConditions: ['production'] }),
    commonjs(),
    shareDecorateHelper(),
    minifyCssLiterals(),
    minifyHtmlLiterals(),
    terser({
      module: true,
      ecma: 2022,
      // inline: 1 inlines only simple functions: a little more raw text, fewer gzipped bytes (about 60).
      compress: { passes: 2, inline: 1 },
      // Error classes keep their names: `error.name` is part of the API (ConfigError, RequestError…).
      keep_classnames: /Error$/,
      format: { comments: false },
    }),
  ],
};
