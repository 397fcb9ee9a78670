import { InvalidArgumentError } from '../errors.js';
import { INVISIBLE_CLASS, hex, isPlainText } from './invisible-characters.js';
import type { CheckedRequest } from './snippet-request.js';

const STILL_INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');
const TEMPLATE_SPECIAL = new RegExp(`[\\\\\`]|\\$\\{|(?!\\n)[${INVISIBLE_CLASS}]`, 'gu');
const FORBIDDEN_BY_FETCH = new Set(['TRACE', 'TRACK']);

/** `fetch` with `await`: an ES module that runs in Node 18+ and, pasted, in a browser console. */
export function javascriptSnippet(request: CheckedRequest): string {
  if (FORBIDDEN_BY_FETCH.has(request.method)) {
    throw new InvalidArgumentError('request.method', request.method, 'fetch refuses TRACE and TRACK; use the curl snippet for this request');
  }
  if (request.body !== undefined && request.method === 'GET') {
    throw new InvalidArgumentError('request.body', request.body, 'fetch cannot send a body with GET; use the curl, Go, Python or PHP snippet for this request');
  }
  const options = [`  method: ${jsString(request.method)},`];
  if (request.headers.length > 0) {
    options.push('  headers: {');
    for (const [name, value] of request.headers) options.push(`    ${jsString(name)}: ${headerValue(value)},`);
    options.push('  },');
  }
  if (request.body !== undefined) options.push(`  body: ${request.body.includes('\n') ? jsTemplate(request.body) : jsString(request.body)},`);
  return [
    `const response = await fetch(${jsString(request.url)}, {`,
    ...options,
    '});',
    'console.log(response.status);',
    'console.log(await response.text());',
  ].join('\n');
}

function jsString(text: string): string {
  const json = JSON.stringify(text);
  return isPlainText(text, false) ? json : json.replace(STILL_INVISIBLE, unicodeEscape);
}

function jsTemplate(text: string): string {
  if (isPlainText(text, true)) return `\`${text.replace(/[\\`]|\$\{/g, '\\$&')}\``;
  return `\`${text.replace(TEMPLATE_SPECIAL, templateEscape)}\``;
}

function templateEscape(match: string): string {
  if (match === '\\' || match === '`' || match === '${') return `\\${match}`;
  if (match === '\r') return '\\r'; // a raw CR in a template literal would be read as LF
  if (match === '\t') return '\\t';
  return unicodeEscape(match);
}

function unicodeEscape(character: string): string {
  const codePoint = character.codePointAt(0)!;
  return codePoint > 0xffff ? `\\u{${hex(codePoint, 1)}}` : `\\u${hex(codePoint, 4)}`;
}

// fetch takes header values as byte strings (one character per byte), so non-ASCII text is given as its
// UTF-8 bytes; that is what curl and the other snippets send.
function headerValue(value: string): string {
  if (!/[^\x00-\x7F]/.test(value)) return jsString(value);
  const bytes = String.fromCharCode(...new TextEncoder().encode(value));
  return JSON.stringify(bytes).replace(/[\x80-\xFF]/g, (byte) => `\\x${hex(byte.charCodeAt(0), 2)}`);
}
