/** Fired by `<request-history>` after the user deleted one entry (`id`), or all of them (`id` undefined). */
export class TicHistoryDeleteEvent extends Event {
  static readonly eventName = 'tic-history-delete';
  readonly id: string | undefined;

  constructor(id: string | undefined) {
    super(TicHistoryDeleteEvent.eventName, { bubbles: true, composed: true });
    this.id = id;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-history-delete': TicHistoryDeleteEvent;
  }
}
