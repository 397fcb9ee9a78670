import type { Plugin } from 'rollup';
export declare function shareDecorateHelper(): Plugin;
