// One 'abort' listener per signal, however many attempts and retry waits watch it. A signal shared by many
// concurrent sends would otherwise carry a listener for each, and past ten Node warns of a leak.
interface Watchers {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const watched = new WeakMap<AbortSignal, Watchers>();

/**
 * Calls `callback` when `signal` aborts. Call the function it returns once the work is over: the last one to do so
 * takes the listener off the signal. `signal` must not be aborted yet.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let watchers = watched.get(signal);
  if (watchers === undefined) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      watched.delete(signal);
      for (const each of callbacks) each();
    };
    watchers = { callbacks, listener };
    watched.set(signal, watchers);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = watchers;
  callbacks.add(callback);
  return () => {
    if (!callbacks.delete(callback) || callbacks.size > 0) return;
    // Once the signal has aborted, `once` has removed the listener already.
    if (watched.get(signal)?.listener !== listener) return;
    watched.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}
