import type { ConsoleResponse } from '../core/request-engine.js';

/** Fired on `<try-it-console>` when a request the user sent got a response, whatever its status. */
export class TicResponseEvent extends Event {
  static readonly eventName = 'tic-response';
  readonly response: ConsoleResponse;

  constructor(response: ConsoleResponse) {
    super(TicResponseEvent.eventName, { bubbles: true, composed: true });
    this.response = response;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-response': TicResponseEvent;
  }
}
