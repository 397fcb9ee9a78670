import type { PreparedRequest } from '../core/request-preparation.js';

/**
 * Fired on `<try-it-console>` when a send starts (Send, Ctrl or Cmd + Enter, `send()`), before anything goes out. Cancel it (`preventDefault()`)
 * to stop the request, or replace `event.request` (or change it) to rewrite it, e.g. to add a signature.
 */
export class TicBeforeSendEvent extends Event {
  static readonly eventName = 'tic-before-send';
  request: PreparedRequest;

  constructor(request: PreparedRequest) {
    super(TicBeforeSendEvent.eventName, { bubbles: true, composed: true, cancelable: true });
    this.request = request;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-before-send': TicBeforeSendEvent;
  }
}
