import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { describeValue } from '../core/errors.js';

/** Anything that tells listeners about its changes: `EnvironmentManager`, `History`. */
export interface Subscribable {
  subscribe(listener: () => void): () => void;
}

/**
 * Re-renders the host whenever a core object changes (another element switched the environment, another
 * tab added history). The source can be swapped at any time; only the current one is listened to.
 */
export class SubscriptionController<T extends Subscribable> implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #method: string;
  /** The value set; the source only when it has `subscribe` and the method named, otherwise never called. */
  #value: unknown;
  #source: T | undefined;
  /** Why a value with the right methods cannot be used: they threw when called (a framework's proxy of a source). */
  #unusable: string | undefined;
  #unsubscribe: (() => void) | undefined;
  readonly #onChange: (() => void) | undefined;
  #connected = false;

  /**
   * `method` tells a source from a wrong kind of value set in its place (a list of environments for a manager):
   * `resolve` for an `EnvironmentManager`. `onChange` runs on each change the source reports, before the host
   * renders again.
   */
  constructor(host: ReactiveControllerHost, method: keyof T & string, onChange?: () => void) {
    this.#host = host;
    this.#method = method;
    this.#onChange = onChange;
    host.addController(this);
  }

  get source(): T | undefined {
    return this.#source;
  }

  set source(value: T | undefined) {
    if (value === this.#value) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#value = value;
    this.#unusable = undefined;
    const { subscribe, [this.#method]: method } = (value ?? {}) as Record<string, unknown>;
    this.#source = typeof subscribe === 'function' && typeof method === 'function' && this.#usable(value!) ? value : undefined;
    if (this.#connected) this.#listen();
    this.#host.requestUpdate();
  }

  /** `expected` followed by the wrong value set, for the host to show in place; `undefined` when there is none. */
  problem(expected: string): string | undefined {
    if (this.#unusable !== undefined) {
      return `${expected}, not a framework's reactive proxy of one (Vue's ref() or reactive()), which hides its private fields (${this.#unusable}): pass the object itself, through markRaw() in Vue.`;
    }
    return this.#value != null && !this.#source ? `${expected} (got ${describeValue(this.#value)}).` : undefined;
  }

  hostConnected(): void {
    this.#connected = true;
    this.#listen();
    // Added back (moved, or kept alive by a framework): the changes made while it was away went unheard.
    this.#changed();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /**
   * Whether subscribing works. A framework's reactive proxy (Vue's) has the source's methods, but they run on the
   * proxy, which lacks the #private fields they read: subscribing would throw in the framework's render.
   */
  #usable(value: T): boolean {
    try {
      value.subscribe(() => {})();
      return true;
    } catch (error) {
      this.#unusable = String(error);
      return false;
    }
  }

  #listen(): void {
    this.#unsubscribe ??= this.#source?.subscribe(() => this.#changed());
  }

  #changed(): void {
    this.#onChange?.();
    this.#host.requestUpdate();
  }
}
