// The standalone bundle for `<script type="module" src="…">` use: everything inside, minified.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

export default {
  input: 'dist/index.js',
  output: { file: 'dist/try-it-console.bundle.js', format: 'es', sourcemap: true },
  plugins: [nodeResolve({ browser: true, exportConditions: ['production'] }), commonjs(), terser({ format: { comments: false } })],
};
