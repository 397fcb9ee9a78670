import { InvalidArgumentError } from '../errors.js';
import { backslashEscape } from './backslash-escapes.js';
import { INVISIBLE, hex, isPlainText, utf8Escapes } from './invisible-characters.js';
import { headerField, type CheckedRequest } from './snippet-request.js';

// Node's fetch throws on Expect ("expect header not supported"), and browsers drop it. fetch sets Sec-Fetch-Mode to
// the request's mode (`cors`), whatever the request says.
const NOT_SENT_BY_FETCH = /^(?:expect|sec-fetch-mode)$/i;
const TEMPLATE_SPECIAL = new RegExp(`[\\\\\`]|\\$\\{|(?!\\n)${INVISIBLE}`, 'gu');
const STILL_INVISIBLE = new RegExp(INVISIBLE, 'gu');
// With a Range, fetch appends "identity" to the Accept-Encoding asked for.
const RANGE_OR_ENCODING = /^(?:accept-encoding|range)$/i;
const FORBIDDEN_BY_FETCH = /^TRAC[EK]$/;

/** `fetch` with `await`: an ES module that runs in Node 18+ and, pasted, in a browser console. */
export function javascriptSnippet(request: CheckedRequest): string {
  const { body, printable } = request;
  if (FORBIDDEN_BY_FETCH.test(request.method)) {
    throw new InvalidArgumentError('request.method', request.method, `fetch cannot send ${request.method}; use another snippet language`);
  }
  if (body !== undefined && request.method === 'GET') {
    throw new InvalidArgumentError('request.body', body, 'fetch cannot send a body with GET; use another snippet language');
  }
  // The URL, the method and the header names are printable ASCII (checked).
  let snippet = `const response = await fetch(${jsString(request.url, true)}, {\n  method: ${jsString(request.method, true)},\n`;
  if (request.headers.length > 0) {
    snippet += '  headers: {\n';
    let rangeOrEncoding = 0;
    for (const [name, value] of request.headers) {
      // Node's fetch also loses `__proto__`: it copies the headers into a plain object, where that name sets the
      // prototype.
      if (name === '__proto__' || NOT_SENT_BY_FETCH.test(name) || (RANGE_OR_ENCODING.test(name) && rangeOrEncoding++)) {
        throw new InvalidArgumentError(headerField(name), value, `fetch cannot send ${rangeOrEncoding > 1 ? 'Accept-Encoding with a Range' : name}; use another snippet language`);
      }
      snippet += `    ${jsString(name, true)}: ${headerValue(value, printable)},\n`;
    }
    snippet += '  },\n';
  }
  if (body !== undefined) snippet += `  body: ${jsTemplate(body, printable)},\n`;
  return `${snippet}});\nconsole.log(response.status);\nconsole.log(await response.text());`;
}

// `knownPrintable`: the caller knows `text` is printable ASCII, so the scan for the rest is skipped.
function jsString(text: string, knownPrintable: boolean): string {
  // Two searches cost less than JSON.stringify when, as usual, there is nothing to escape.
  if (knownPrintable && !text.includes('"') && !text.includes('\\')) return `"${text}"`;
  if (knownPrintable || isPlainText(text, false)) return JSON.stringify(text);
  return JSON.stringify(text).replace(STILL_INVISIBLE, (character) => unicodeEscape(character.codePointAt(0)!));
}

// A raw CR in a template literal would be read as LF, so it is escaped too.
function templateEscape(match: string): string {
  return backslashEscape(match, unicodeEscape);
}

function unicodeEscape(codePoint: number): string {
  return codePoint > 0xffff ? `\\u{${hex(codePoint, 1)}}` : `\\u${hex(codePoint, 4)}`;
}

// fetch takes header values as byte strings (one character per byte), so non-ASCII text is given as its
// UTF-8 bytes; that is what curl and the other snippets send.
function headerValue(value: string, knownPrintable: boolean): string {
  if (knownPrintable || !/[^\x00-\x7F]/.test(value)) return jsString(value, knownPrintable);
  return JSON.stringify(value).replace(/[^\x00-\x7F]+/g, (text) => utf8Escapes(text, '\\x'));
}

// A template literal keeps a multi-line body multi-line and a JSON body free of escaped quotes.
function jsTemplate(text: string, knownPrintable: boolean): string {
  if (knownPrintable || isPlainText(text, true)) {
    // Searches are much cheaper than a regex pass over a long body, and most bodies have none of these.
    const special = text.includes('\\') || text.includes('`') || text.includes('${');
    return `\`${special ? text.replace(/[\\`]|\$\{/g, '\\$&') : text}\``;
  }
  return `\`${text.replace(TEMPLATE_SPECIAL, templateEscape)}\``;
}
