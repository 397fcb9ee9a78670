// A Notifier's attempts in flight, so that close()'s timeout can abort them, however long before it they started.
import type { AttemptDeadline } from './attempt-deadline.js';

/**
 * Every attempt registers here for its whole flight. Slots in an array, reused, rather than a Set or an AbortSignal
 * listener per attempt: holding each attempt's deadline in a Set (as an onAbort callback does) tripled the time the
 * send benchmark spent collecting garbage, whereas an array slot cost nothing measurable.
 */
export class AttemptsInFlight {
  /** Set once `abort` ran: attempts in flight were aborted, and none should start. */
  aborted = false;
  /** What `abort` was given: the cause of each failure it made. */
  reason: unknown = undefined;
  readonly #deadlines: Array<AttemptDeadline | undefined> = [];
  readonly #freeSlots: number[] = [];

  /** Holds `deadline` until `remove(slot)` with the slot this returns. */
  add(deadline: AttemptDeadline): number {
    const slot = this.#freeSlots.pop() ?? this.#deadlines.length;
    this.#deadlines[slot] = deadline;
    return slot;
  }

  remove(slot: number): void {
    this.#deadlines[slot] = undefined;
    this.#freeSlots.push(slot);
  }

  /** Aborts every attempt held now; the first call only. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    // An aborted attempt leaves its slot only after a turn (its `finally`), so the array does not change meanwhile.
    for (const deadline of this.#deadlines) deadline?.cancel('close', reason);
  }
}
