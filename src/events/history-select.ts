import type { HistoryEntry } from '../core/history-entry.js';

/**
 * Fired by `<request-history>` when the user picks an entry. Cancelable: `<try-it-console>` loads the entry, replacing
 * the request being edited, unless a listener calls `preventDefault()` (to ask first, then call `load(entry)` itself).
 */
export class TicHistorySelectEvent extends Event {
  static readonly eventName = 'tic-history-select';
  readonly entry: HistoryEntry;

  constructor(entry: HistoryEntry) {
    super(TicHistorySelectEvent.eventName, { bubbles: true, composed: true, cancelable: true });
    this.entry = entry;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-history-select': TicHistorySelectEvent;
  }
}
