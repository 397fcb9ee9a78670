import type { HistoryEntry } from '../core/history-entry.js';

/** Fired by `<request-history>` when the user picks an entry to load it back into the console. */
export class TicHistorySelectEvent extends Event {
  static readonly eventName = 'tic-history-select';
  readonly entry: HistoryEntry;

  constructor(entry: HistoryEntry) {
    super(TicHistorySelectEvent.eventName, { bubbles: true, composed: true });
    this.entry = entry;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-history-select': TicHistorySelectEvent;
  }
}
