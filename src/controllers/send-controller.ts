import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { RequestError } from '../core/errors.js';
import type { ConsoleResponse, ResponseProgress } from '../core/request-engine.js';

export type SendState =
  | { status: 'idle' }
  /** `progress`: the response, once its headers came, with its body as far as it came. */
  | { status: 'pending'; progress?: ResponseProgress }
  | { status: 'complete'; response: ConsoleResponse }
  | { status: 'error'; error: RequestError };

/**
 * How often, at most, a response still arriving is shown again, in ms: each showing decodes and lays out its text, and
 * a fast download brings a part every few milliseconds.
 */
const PROGRESS_INTERVAL = 250;

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

  /**
   * Runs `work` with a fresh signal and a progress callback, which shows the response as it arrives (its headers at
   * once, then its body at most every 250 ms); resolves with the state it ended in (never rejects).
   */
  async run(work: (signal: AbortSignal, onProgress: (progress: ResponseProgress) => void) => Promise<ConsoleResponse>): Promise<SendState> {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#set({ status: 'pending' });
    let latest: ResponseProgress;
    let shownAt = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      timer = undefined;
      shownAt = performance.now();
      if (this.#abort === abort) this.#set({ status: 'pending', progress: latest });
    };
    const onProgress = (progress: ResponseProgress) => {
      latest = progress;
      timer ??= setTimeout(show, Math.max(0, shownAt + PROGRESS_INTERVAL - performance.now()));
    };
    let next: SendState;
    try {
      next = { status: 'complete', response: await work(abort.signal, onProgress) };
    } catch (error) {
      next = { status: 'error', error: error instanceof RequestError ? error : new RequestError('network', String(error), { cause: error }) };
    } finally {
      clearTimeout(timer);
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
