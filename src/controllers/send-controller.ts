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

/** What a send that another request replaced ends in, for whoever waits on it. */
const REPLACED = 'Cancelled: another request took its place before it finished.';

/**
 * One send at a time, with Cancel: the shape of `@lit/task`, which hands its work an `AbortSignal`.
 * A new send cancels the one in flight; the host re-renders on every state change.
 */
export class SendController implements ReactiveController {
  readonly #host: ReactiveControllerHost & Element;
  /** The send in flight: what cancels it, and what ends it for its caller. */
  #current: { abort: AbortController; end(state: SendState): void } | undefined;
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
   * once, then its body at most every 250 ms). `ended` hears how the send ended, once: when the work settles, or at
   * once, as `aborted`, when another request replaces it (a reset, a failure shown, another run), so that it is told
   * before anything about the next one. Resolves with that state (never rejects).
   */
  run(work: (signal: AbortSignal, onProgress: (progress: ResponseProgress) => void) => Promise<ConsoleResponse>, ended?: (state: SendState) => void): Promise<SendState> {
    this.#replace({ status: 'pending' });
    const abort = new AbortController();
    let settle!: (state: SendState) => void;
    const settled = new Promise<SendState>((resolve) => (settle = resolve));
    let over = false;
    const current = {
      abort,
      end: (state: SendState) => {
        if (over) return;
        over = true;
        ended?.(state);
        settle(state);
      },
    };
    this.#current = current;
    let latest: ResponseProgress;
    let shownAt = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      timer = undefined;
      shownAt = performance.now();
      if (this.#current === current) this.#set({ status: 'pending', progress: latest });
    };
    const onProgress = (progress: ResponseProgress) => {
      latest = progress;
      timer ??= setTimeout(show, Math.max(0, shownAt + PROGRESS_INTERVAL - performance.now()));
    };
    void (async () => {
      let next: SendState;
      try {
        next = { status: 'complete', response: await work(abort.signal, onProgress) };
      } catch (error) {
        next = { status: 'error', error: error instanceof RequestError ? error : new RequestError('network', String(error), { cause: error }) };
      } finally {
        clearTimeout(timer);
      }
      // A send that a newer one replaced shows nothing: the newer one owns the state now, and its caller was told.
      if (this.#current !== current) return;
      this.#current = undefined;
      this.#set(next);
      current.end(next);
    })();
    return settled;
  }

  /** Shows a failure that happened before sending (the request could not be prepared). */
  fail(error: RequestError): void {
    this.#replace({ status: 'error', error });
  }

  /** Shows how an earlier send ended (a response kept for its history entry), in place of any send in flight. */
  show(state: SendState): void {
    this.#replace(state);
  }

  /** Back to idle, for another request: a send in flight is cancelled, and whatever it ends in is not shown. */
  reset(): void {
    this.#replace({ status: 'idle' });
  }

  /** Cancels the send in flight, if any: it ends as `aborted`, shown. */
  cancel(): void {
    this.#current?.abort.abort();
  }

  hostDisconnected(): void {
    // Moved (removed and added back at once) is not removed: the send goes on.
    queueMicrotask(() => {
      if (!this.#host.isConnected) this.cancel();
    });
  }

  /** Shows `state` in place of the send in flight, which is cancelled and ends for its caller now. */
  #replace(state: SendState): void {
    const replaced = this.#current;
    this.#current = undefined;
    replaced?.abort.abort();
    this.#set(state);
    replaced?.end({ status: 'error', error: new RequestError('aborted', REPLACED) });
  }

  #set(state: SendState): void {
    this.#state = state;
    this.#host.requestUpdate();
  }
}
