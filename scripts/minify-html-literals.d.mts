import type { Plugin } from 'rollup';
export declare function minifyHtmlQuasis(quasis: readonly string[]): string[];
export declare function minifyHtmlLiterals(options?: { include?: RegExp }): Plugin;
