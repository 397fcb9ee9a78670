// The plain-TS core: no DOM, no Lit, no Node built-ins. Runs in browsers and in Node.
export * from './errors.js';
export * from './http-syntax.js';
