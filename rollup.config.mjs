// The standalone bundle for `<script type="module" src="…">` use: everything inside, minified.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { minifyCssLiterals } from './scripts/minify-css-literals.mjs';

export default {
  input: 'dist/index.js',
  output: { file: 'dist/try-it-console.bundle.js', format: 'es', sourcemap: true },
  plugins: [
    nodeResolve({ browser: true, exportConditions: ['production'] }),
    commonjs(),
    minifyCssLiterals(),
    // Error classes keep their names: `error.name` is part of the API (ConfigError, RequestError…).
    terser({ module: true, ecma: 2022, compress: { passes: 2 }, keep_classnames: /Error$/, format: { comments: false } }),
  ],
};
