// Postman's dynamic variables that docs authors use most. Each placeholder gets a fresh value.
import { randomId } from './random-id.js';

const DYNAMIC_VARIABLES: Readonly<Record<string, () => string>> = {
  $guid: () => randomId(),
  // Postman's other name for it, which its newer collections use.
  $randomUUID: () => randomId(),
  $timestamp: () => String(Math.floor(Date.now() / 1000)),
  $isoTimestamp: () => new Date().toISOString(),
  $randomInt: () => String(Math.floor(Math.random() * 1001)),
};

/** The names of the dynamic variables, e.g. `$guid`. */
export const dynamicVariableNames: readonly string[] = Object.keys(DYNAMIC_VARIABLES);

/** A fresh value for a dynamic variable, or `undefined` when `name` is not one. */
export function dynamicVariableValue(name: string): string | undefined {
  return Object.hasOwn(DYNAMIC_VARIABLES, name) ? DYNAMIC_VARIABLES[name]!() : undefined;
}
