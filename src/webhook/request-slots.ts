// A channel's cap on requests in flight at once (its `maxConcurrent`). Beyond it, attempts wait for a slot in the
// order they came, so that a burst of sends opens a bounded number of sockets instead of one per send.
import type { AttemptDeadline } from './attempt-deadline.js';

export class RequestSlots {
  readonly limit: number;
  #taken = 0;
  // The attempts waiting, oldest first: a Set keeps insertion order and lets an aborted one leave at once.
  readonly #waiting = new Set<() => void>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /**
   * Takes a slot when one is free, without waiting: the common case costs no promise. A freed slot passes straight
   * to the oldest waiting attempt, so while any wait, none is free and a newcomer queues behind them.
   */
  tryTake(): boolean {
    if (this.#taken >= this.limit) return false;
    this.#taken += 1;
    return true;
  }

  /**
   * Resolves `true` once a slot is this attempt's, or `false` (holding none) when `deadline` is cancelled while it
   * waits: the caller's signal, or the Notifier's `close()` timeout.
   */
  waitFor(deadline: AttemptDeadline): Promise<boolean> {
    return new Promise((resolve) => {
      const given = () => {
        deadline.off('abort', stopped);
        resolve(true);
      };
      const stopped = () => {
        this.#waiting.delete(given);
        resolve(false);
      };
      this.#waiting.add(given);
      deadline.once('abort', stopped);
    });
  }

  /** Gives the slot back, to the oldest waiting attempt if any. */
  release(): void {
    if (this.#waiting.size === 0) {
      this.#taken -= 1;
      return;
    }
    // undici reuses a connection only a turn of the event loop after its response (a setImmediate of its own, which
    // runs first): handed over sooner, the slot's next request would find every connection busy and open another.
    setImmediate(this.#handOver);
  }

  // To the oldest attempt still waiting; the slot is free again when every one left meanwhile.
  readonly #handOver = (): void => {
    for (const next of this.#waiting) {
      this.#waiting.delete(next);
      next();
      return;
    }
    this.#taken -= 1;
  };
}
