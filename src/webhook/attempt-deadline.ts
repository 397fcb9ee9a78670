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

  /** Call once the attempt, response body included, is over. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}
