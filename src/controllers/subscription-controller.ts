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
    const { subscribe, [this.#method]: method } = (value ?? {}) as Record<string, unknown>;
    this.#source = typeof subscribe === 'function' && typeof method === 'function' ? value : undefined;
    if (this.#connected) this.#listen();
    this.#host.requestUpdate();
  }

  /** `expected` followed by the wrong value set, for the host to show in place; `undefined` when there is none. */
  problem(expected: string): string | undefined {
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

  #listen(): void {
    this.#unsubscribe ??= this.#source?.subscribe(() => this.#changed());
  }

  #changed(): void {
    this.#onChange?.();
    this.#host.requestUpdate();
  }
}
