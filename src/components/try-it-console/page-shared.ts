/**
 * What the consoles of a page share, by key (a docs page has a console per operation, all configured alike): the
 * first console to need one makes it, the others take it, and the last to let go of it ends it.
 */
export class PageShared<T> {
  readonly #held = new Map<string, { value: T; holders: number }>();
  readonly #end: (value: T) => void;

  /** @param end what the last holder's release does, e.g. close it. */
  constructor(end: (value: T) => void = () => {}) {
    this.#end = end;
  }

  /** The value shared under `key`, while a console holds it. */
  get(key: string): T | undefined {
    return this.#held.get(key)?.value;
  }

  /** One more holder of `value`: the one `get(key)` gave, or a new one, shared under `key` from now on. */
  hold(key: string, value: T): void {
    const held = this.#held.get(key);
    if (held?.value === value) held.holders += 1;
    else this.#held.set(key, { value, holders: 1 });
  }

  /** One holder fewer. The last one ends `value`, and so does the holder of a value no longer shared under `key`. */
  release(key: string, value: T): void {
    const held = this.#held.get(key);
    if (held?.value === value && --held.holders > 0) return;
    if (held?.value === value) this.#held.delete(key);
    this.#end(value);
  }
}
