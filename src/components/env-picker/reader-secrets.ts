import type { EnvironmentManager } from '../../core/environment-manager.js';

/**
 * The secrets readers set through `<env-picker>` (values it masks whole), by manager, for the consoles that send with
 * that manager to keep out of history: whichever picker set one (a console's, another console's sharing the manager,
 * the page's own), and whichever history the sending console has. Weak: a manager let go of takes its values along.
 */
const secrets = new WeakMap<EnvironmentManager, Set<string>>();

/** Notes `value`, set by the reader in `manager`, as a secret. */
export function noteReaderSecret(manager: EnvironmentManager, value: string): void {
  let values = secrets.get(manager);
  if (!values) secrets.set(manager, (values = new Set()));
  values.add(value);
}

/** The secrets readers set in `manager`. */
export function readerSecrets(manager: EnvironmentManager): Iterable<string> {
  return secrets.get(manager) ?? [];
}
