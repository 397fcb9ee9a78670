// Change listeners of the environment manager and the history.
import { InvalidArgumentError } from './errors.js';

/** Refused at `subscribe`: called only at the next change, a listener that is not a function would fail far from its cause. */
export function expectListener(listener: unknown): asserts listener is () => void {
  if (typeof listener !== 'function') throw new InvalidArgumentError('listener', listener, 'subscribe takes a function, called after each change');
}

/**
 * Calls every listener. One that throws does not stop the others or undo the change they are told about: its
 * error is reported as the platform reports an event listener's (`reportError` in browsers, an uncaught
 * exception in Node), not thrown at whoever made the change.
 */
export function notifyAll(listeners: Iterable<() => void>): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      report(error);
    }
  }
}

/**
 * Calls the subscribers in `listeners` as they are now, as DOM events do: one subscribed during the calls waits for
 * the next change (one that subscribes again, as a host moved in the DOM does, was called again and again at the end
 * of the Set), and one unsubscribed meanwhile is not called (unless it was subscribed again by then).
 */
export function notifySubscribers(listeners: ReadonlySet<() => void>): void {
  notifyAll([...listeners].map((listener) => () => listeners.has(listener) && listener()));
}

function report(error: unknown): void {
  const { reportError } = globalThis as { reportError?: (error: unknown) => void };
  if (typeof reportError === 'function') reportError(error);
  else queueMicrotask(() => { throw error; });
}
