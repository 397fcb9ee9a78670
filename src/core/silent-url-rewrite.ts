// The WHATWG URL parser (fetch, browsers, Node) accepts some malformed URLs by rewriting them without a word. Sent
// so, a request would go to another URL than the one the console shows, records in history and writes in the
// snippets (which refuse these forms), so the console refuses them too, saying what to write instead.
import { hasDotSegment } from './http-syntax.js';

const EDGE_SPACE_OR_CONTROL = /^[\x00-\x20]|[\x00-\x20]$/;
const TAB_OR_NEWLINE = /[\t\n\r]/;
const NAMES: Record<string, string> = { '\t': 'a tab', '\n': 'a line break (LF)', '\r': 'a carriage return (CR)' };
// Exactly two slashes after the scheme, as the snippets require: `https:host`, `https:/host` and `https:///host` are
// read as `https://host` by the parser, while Go's and Python's clients find no host in them.
const TWO_SLASHES = /^https?:\/\/(?!\/)/i;
const SLASHES_AFTER_SCHEME = /^(https?:)[/\\]*/i;
/** Where a character that is hard to see in what the reader wrote most often comes from. */
export const FROM_A_VARIABLE = ' (it often comes from a variable’s value)';

/**
 * How the parser would change `url`, an http(s) URL that parses, as a phrase to follow the quoted URL (`contains
 * a tab, which…`); `undefined` when it sends the URL as written, apart from encoding and case.
 */
export function silentUrlRewrite(url: string): string | undefined {
  if (EDGE_SPACE_OR_CONTROL.test(url)) {
    return `starts or ends with a space or control character, which browsers strip from a URL without a word${FROM_A_VARIABLE}; remove it`;
  }
  const newline = TAB_OR_NEWLINE.exec(url)?.[0];
  if (newline !== undefined) {
    return `contains ${NAMES[newline]}, which browsers remove from a URL without a word${FROM_A_VARIABLE}; remove it, or write it percent-encoded as %${newline.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')} if the URL needs one`;
  }
  // Only before the query: there a backslash is a path separator; in the query and fragment it is sent as written.
  if (url.includes('\\') && /^[^?#]*\\/.test(url)) return 'contains "\\" before its query, which browsers read as "/" in an http(s) URL; write "/" to separate path segments, or %5C for a backslash';
  if (!TWO_SLASHES.test(url)) {
    const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
    return `does not have exactly two slashes after "${scheme}", which browsers correct without a word (other HTTP clients find no host); write ${url.replace(SLASHES_AFTER_SCHEME, '$1//')}`;
  }
  // `https://@host` or `https://:@host`: no user name nor password, so there is no credential to refuse, only an "@".
  if (/^https?:\/\/:?@/i.test(url)) return 'has an "@" before its host with no user name, which browsers drop without a word; remove it';
  // A dot segment starts with `/.` or `/%`; only the path has them (the query and fragment are sent as written).
  if ((url.includes('/.') || url.includes('/%')) && hasDotSegment(url)) {
    return `has a "." or ".." path segment, which browsers resolve before sending; write the resolved path (${new URL(url).pathname})`;
  }
  return undefined;
}
