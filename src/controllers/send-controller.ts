import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { RequestError } from '../core/errors.js';
import type { ConsoleResponse } from '../core/request-engine.js';

export type SendState =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'complete'; response: ConsoleResponse }
  | { status: 'error'; error: RequestError };

/**
 * One send at a time, with Cancel: the shape of `@lit/task`, which hands its work an `AbortSignal`.
 * A new send cancels the one in flight; the host re-renders on every state change.
 */
export class SendController implements ReactiveController {
  readonly #host: ReactiveControllerHost & Element;
  #abort: AbortController | undefined;
  #state: SendState = { status: 'idle' };

  constructor(host: ReactiveControllerHost & Element) {
    this.#host = host;
    host.addController(this);
  }

  get state(): SendState {
    return this.#state;
  }

  /** Runs `work` with a fresh signal; resolves with the state it ended in (never rejects). */
  async run(work: (signal: AbortSignal) => Promise<ConsoleResponse>): Promise<SendState> {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#set({ status: 'pending' });
    let next: SendState;
    try {
      next = { status: 'complete', response: await work(abort.signal) };
    } catch (error) {
      next = { status: 'error', error: error instanceof RequestError ? error : new RequestError('network', String(error), { cause: error }) };
    }
    // A send that a newer one replaced reports nothing: the newer one owns the state now.
    if (this.#abort === abort) {
      this.#abort = undefined;
      this.#set(next);
    }
    return next;
  }

  /** Shows a failure that happened before sending (the request could not be prepared). */
  fail(error: RequestError): void {
    this.#abort?.abort();
    this.#abort = undefined;
    this.#set({ status: 'error', error });
  }

  /** Back to idle, for another request: a send in flight is cancelled, and whatever it ends in is not shown. */
  reset(): void {
    this.#abort?.abort();
    this.#abort = undefined;
    this.#set({ status: 'idle' });
  }

  /** Cancels the send in flight, if any. */
  cancel(): void {
    this.#abort?.abort();
  }

  hostDisconnected(): void {
    // Moved (removed and added back at once) is not removed: the send goes on.
    queueMicrotask(() => {
      if (!this.#host.isConnected) this.cancel();
    });
  }

  #set(state: SendState): void {
    this.#state = state;
    this.#host.requestUpdate();
  }
}
