// The browser entry. Until the elements land it re-exports the core.
export * from './core/index.js';
