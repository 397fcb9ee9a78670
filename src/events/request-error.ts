import type { RequestError } from '../core/errors.js';

/** Fired on `<try-it-console>` when a send failed or was refused before going out (CORS, network, timeout, cancelled…). */
export class TicRequestErrorEvent extends Event {
  static readonly eventName = 'tic-request-error';
  readonly error: RequestError;

  constructor(error: RequestError) {
    super(TicRequestErrorEvent.eventName, { bubbles: true, composed: true });
    this.error = error;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-request-error': TicRequestErrorEvent;
  }
}
