// The per-attempt timeout. undici accepts an EventEmitter as its abort signal; a plain timer plus an emitter costs
// a fraction of `AbortSignal.timeout()`, which showed up as the largest overhead in the send benchmark.
import { EventEmitter } from 'node:events';

/** Who can abort an attempt before its deadline: the caller's signal, or the Notifier's `close()` timeout. */
export type AttemptStopper = 'caller' | 'close';

/**
 * Aborts the attempt it is given to as `signal` once `milliseconds` have passed since `start()`, or when `cancel()`
 * is called (before the start too: an attempt waiting for a free request slot), unless cleared first.
 */
export class AttemptDeadline extends EventEmitter {
  aborted = false;
  /** Set when `cancel()` aborted the attempt, not the deadline: by whom, and the reason given (the failure's cause). */
  cancelledBy: { readonly stopper: AttemptStopper; readonly reason: unknown } | undefined = undefined;
  readonly #milliseconds: number;
  #timer: NodeJS.Timeout | undefined = undefined;

  constructor(milliseconds: number) {
    super();
    this.#milliseconds = milliseconds;
  }

  /** Starts the countdown, as the request goes out: the wait for a free slot before it is not the receiver's time. */
  start(): void {
    if (!this.aborted) this.#timer = setTimeout(() => this.#abort(), this.#milliseconds);
  }

  /**
   * What `work` settles to, or `undefined` as soon as the attempt is aborted. undici only acts on an abort once the
   * request has a connection, so a connection that never completes would otherwise outlast the deadline.
   */
  within<T>(work: Promise<T>): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      work.then(resolve, reject);
      if (this.aborted) resolve(undefined);
      else this.once('abort', () => resolve(undefined));
    });
  }

  /** Aborts the attempt now, for `stopper`. Does nothing once the deadline has passed or another stopper cancelled. */
  cancel(stopper: AttemptStopper, reason: unknown): void {
    if (this.aborted) return;
    this.cancelledBy = { stopper, reason };
    this.clear();
    this.#abort();
  }

  /** Call once the attempt's outcome is known. */
  clear(): void {
    clearTimeout(this.#timer);
  }

  #abort(): void {
    this.aborted = true;
    this.emit('abort');
  }
}
