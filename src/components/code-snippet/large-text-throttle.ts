/**
 * When a large snippet goes on screen again. Laying out a 200 KB line takes tens of milliseconds, so while the user
 * types in a large body the snippet shown follows at most once per `interval`, and once more when typing stops.
 * Small texts, and a change from or to a small one, are shown at once.
 */
export class LargeTextThrottle {
  readonly #limit: number;
  readonly #interval: number;
  readonly #onDue: () => void;
  readonly #now: () => number;
  #shown: string | undefined;
  #shownAt = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `onDue` is called when a held-back text is due: the owner renders again and calls `pick`. */
  constructor(limit: number, interval: number, onDue: () => void, now: () => number = () => performance.now()) {
    this.#limit = limit;
    this.#interval = interval;
    this.#onDue = onDue;
    this.#now = now;
  }

  /** The text to put on screen for `latest`: `latest` itself, or the large one already shown while it is held back. */
  pick(latest: string | undefined): string | undefined {
    if (latest === this.#shown) return latest;
    const now = this.#now();
    const wait = this.#interval - (now - this.#shownAt);
    if (wait > 0 && this.#isLarge(latest) && this.#isLarge(this.#shown)) {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(this.#onDue, wait);
      return this.#shown;
    }
    clearTimeout(this.#timer);
    this.#shown = latest;
    this.#shownAt = now;
    return latest;
  }

  /** Makes the next `pick` show its text at once (before Copy selects what is shown). */
  release(): void {
    this.#shownAt = -Infinity;
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #isLarge(text: string | undefined): boolean {
    return text !== undefined && text.length > this.#limit;
  }
}
