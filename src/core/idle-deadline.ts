/**
 * A timeout that starts again whenever the response moves on: the wait for its head, then each pause in its body.
 * A total deadline would cut off a healthy stream (server-sent events, a model writing tokens) that outlasts it.
 */
export class IdleDeadline {
  readonly #controller = new AbortController();
  readonly #milliseconds: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(milliseconds: number) {
    this.#milliseconds = milliseconds;
    this.restart();
  }

  /** Aborted, with a `TimeoutError` as `AbortSignal.timeout()` gives, once a wait outlasts the deadline. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The response moved on: the next wait gets the whole deadline. */
  restart(): void {
    if (this.#controller.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), this.#milliseconds);
  }

  /** The response ended (or failed): nothing left to time. */
  stop(): void {
    clearTimeout(this.#timer);
  }
}
