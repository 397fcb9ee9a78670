// Every event the elements fire: typed, `tic-` prefixed, bubbling, fired on user action or a call of the console's
// send(), cancel() or load().
export * from './before-send.js';
export * from './response.js';
export * from './request-error.js';
export * from './environment-change.js';
export * from './variable-change.js';
export * from './history-select.js';
export * from './history-delete.js';
export * from './copy.js';
export * from './language-change.js';
