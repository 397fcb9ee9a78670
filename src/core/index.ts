// The plain-TS core: no DOM, no Lit, no Node built-ins. Runs in browsers and in Node.
export * from './errors.js';
export * from './http-syntax.js';
export * from './placeholders.js';
export { dynamicVariableNames } from './dynamic-variables.js';
export * from './environment.js';
export * from './environment-manager.js';
export * from './history-config.js';
export * from './history-entry.js';
export * from './history-store.js';
export * from './history.js';
export * from './idb-history-store.js';
export * from './snippets/index.js';
export * from './console-config.js';
export * from './proxy-route.js';
export * from './request-preparation.js';
export * from './response-body.js';
export * from './request-engine.js';
export * from './template-snippet.js';
