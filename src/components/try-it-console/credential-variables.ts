// The variables a request took its credentials from: after a 401 or 403, a token that is defined but wrong (expired)
// is the likely cause, and the console offers to edit it.
import type { WrittenRequest } from '../../core/history-entry.js';
import { scanPlaceholders } from '../../core/placeholders.js';
import { MASK, maskedValue } from '../env-picker/secret-masking.js';
import { parameterOf, splitQuery } from './query-parameters.js';

/** Whether a header, parameter or variable of this name holds a credential (`Authorization`, `X-API-Key`, `api_key`), as the environment panel judges names. */
const isCredentialName = (name: string) => maskedValue(name.trim(), '') === MASK;

/**
 * The variables placed in the credentials of a request as written: in a header (its rows, and the default headers no
 * row replaced) or query parameter named like a credential, or themselves so named, in the order they come; dynamic
 * ones (`{{$guid}}`) left out, as there is nothing to edit.
 */
export function credentialVariables(written: WrittenRequest, defaultHeaders: Record<string, string>): string[] {
  const rows = Object.entries(written.headers);
  const replaced = new Set(rows.map(([name]) => name.trim().toLowerCase()));
  const defaults = Object.entries(defaultHeaders).filter(([name]) => !replaced.has(name.trim().toLowerCase()));
  const parameters = (splitQuery(written.url).parts ?? []).map((part) => parameterOf(part));
  const found = new Set<string>();
  for (const [name, value = ''] of [...rows, ...defaults, ...parameters]) {
    for (const placeholder of scanPlaceholders(value)) {
      const variable = placeholder.name.trim();
      if (variable && !variable.startsWith('$') && (isCredentialName(name) || isCredentialName(variable))) found.add(variable);
    }
  }
  return [...found];
}
