import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * How long the live region stays empty before an announcement, in ms. Emptied and refilled at once, it is no
 * change at all (changes within a frame reach the accessibility tree as one); Angular CDK's LiveAnnouncer found
 * that NVDA and JAWS with Chrome read a repeated message only after an empty region and a non-zero pause, and
 * waits 100 ms.
 */
const ANNOUNCE_DELAY = 100;

/**
 * The text of a host's `role="status"` region. Screen readers announce text added to a live region, and
 * the same message set again is no change (Lit leaves an equal text node alone): deleting two identical
 * entries in a row said nothing the second time. So every announcement empties the region, then fills it
 * after a pause. Alternating an invisible character at the end would make each one a change too, but a change
 * one character long, which a screen reader may read alone ("blank") or skip.
 */
export class LiveAnnouncer implements ReactiveController {
  readonly #host: ReactiveControllerHost & Element;
  #text = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost & Element) {
    this.#host = host;
    host.addController(this);
  }

  /** What the region holds now: render it as its only content. */
  get text(): string {
    return this.#text;
  }

  /** Says `message`, even when it is the one said last. */
  announce(message: string): void {
    this.#set('');
    this.#timer = setTimeout(() => this.#set(message), ANNOUNCE_DELAY);
  }

  /** Empties the region, and drops an announcement still waiting. */
  clear(): void {
    this.#set('');
  }

  hostDisconnected(): void {
    // Removed (not moved: added back at once), nobody hears the region: the announcement waiting is dropped rather
    // than left on a timer that outlives the element.
    queueMicrotask(() => {
      if (this.#host.isConnected) return;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    });
  }

  #set(text: string): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (text === this.#text) return;
    this.#text = text;
    this.#host.requestUpdate();
  }
}
