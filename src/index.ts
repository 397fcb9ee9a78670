// The browser entry: importing it defines <try-it-console>, <env-picker>, <request-history> and
// <code-snippet>, and exports their classes, their events and the plain-TS core.
export { TryItConsole } from './components/try-it-console/try-it-console.js';
export { EnvPicker } from './components/env-picker/env-picker.js';
export { RequestHistory } from './components/request-history/request-history.js';
export { CodeSnippet } from './components/code-snippet/code-snippet.js';
export * from './events/index.js';
export * from './core/index.js';
