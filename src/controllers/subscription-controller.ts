import type { ReactiveController, ReactiveControllerHost } from 'lit';

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
  #source: T | undefined;
  #unsubscribe: (() => void) | undefined;
  readonly #onChange: (() => void) | undefined;
  #connected = false;

  /** `onChange` runs on each change the source reports, before the host renders again. */
  constructor(host: ReactiveControllerHost, onChange?: () => void) {
    this.#host = host;
    this.#onChange = onChange;
    host.addController(this);
  }

  get source(): T | undefined {
    return this.#source;
  }

  set source(source: T | undefined) {
    if (source === this.#source) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#source = source;
    if (this.#connected) this.#listen();
    this.#host.requestUpdate();
  }

  hostConnected(): void {
    this.#connected = true;
    this.#listen();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #listen(): void {
    this.#unsubscribe ??= this.#source?.subscribe(() => {
      this.#onChange?.();
      this.#host.requestUpdate();
    });
  }
}
