import { MIN_REDACTED_VALUE_LENGTH, valueForms } from '../../core/history.js';
import { MASK, maskUrlCredentials } from '../url-credential-masking.js';

/** A history entry's URL in the two parts a row shows. */
export interface EntryUrl {
  /** Scheme and authority as written (`https://api.example.com:8443`); empty for a URL without an authority. */
  origin: string;
  /** Path, query and fragment as written: what tells requests to one API apart. The whole URL when it has no authority. */
  path: string;
}

/**
 * Splits `url` as written, without normalising it (`new URL()` would percent-encode and lower-case, and
 * show a URL other than the one sent).
 */
export function splitEntryUrl(url: string): EntryUrl {
  const match = /^([a-z][a-z\d+.-]*:\/\/[^/?#]*)(.*)$/is.exec(url);
  if (!match) return { origin: '', path: url };
  return { origin: match[1]!, path: match[2] || '/' };
}

/**
 * The texts that show `values`: each as written and as a URL writes it (see valueForms), in the order of `values` (the
 * longest first, so that a value holding another is masked whole). Values shorter than history redacts are left out:
 * they would match words of the text.
 */
export function valueFormsToMask(values: readonly string[]): string[] {
  return values.filter((value) => value.length >= MIN_REDACTED_VALUE_LENGTH).flatMap(valueForms);
}

/** `text` with every one of `forms` (see valueFormsToMask) shown as the mask. */
export function withFormsMasked(text: string, forms: readonly string[]): string {
  return forms.reduce((masked, form) => masked.replaceAll(form, MASK), text);
}

/**
 * `url` with the `forms` of the values to mask (see valueFormsToMask) masked, its credentials masked as `<env-picker>`
 * masks them, and the values of the parameters that `listed` (a history's `redactQueryParameters`, lower-case) names:
 * memory keeps them as sent, for the page's time, and the site said they are secret (`appid`).
 */
export function maskEntryUrl(url: string, listed: readonly string[], forms: readonly string[] = []): string {
  return maskUrlCredentials(withFormsMasked(url, forms), listed);
}
