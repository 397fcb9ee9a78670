// The per-attempt timeout. undici accepts an EventEmitter as its abort signal; a plain timer plus an emitter costs
// a fraction of `AbortSignal.timeout()`, which showed up as the largest overhead in the send benchmark.
import { EventEmitter } from 'node:events';

/** Aborts the attempt it is given to as `signal` once `milliseconds` have passed, unless cleared first. */
export class AttemptDeadline extends EventEmitter {
  aborted = false;
  readonly #timer: NodeJS.Timeout;

  constructor(milliseconds: number) {
    super();
    this.#timer = setTimeout(() => {
      this.aborted = true;
      this.emit('abort');
    }, milliseconds);
  }

  /**
   * What `work` settles to, or `undefined` as soon as the deadline passes. undici only acts on an abort once the
   * request has a connection, so a connection that never completes would otherwise outlast the deadline.
   */
  within<T>(work: Promise<T>): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      work.then(resolve, reject);
      if (this.aborted) resolve(undefined);
      else this.once('abort', () => resolve(undefined));
    });
  }

  /** Call once the attempt's outcome is known. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}
