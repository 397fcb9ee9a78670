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
