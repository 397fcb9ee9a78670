import { INVISIBLE_CLASS, hex, isPlainText } from './invisible-characters.js';
import type { CheckedRequest } from './snippet-request.js';

const SINGLE_LINE_SPECIAL = new RegExp(`['\\\\]|[${INVISIBLE_CLASS}]`, 'gu');
const TRIPLE_QUOTED_SPECIAL = new RegExp(`['\\\\]|(?!\\n)[${INVISIBLE_CLASS}]`, 'gu');

/** `requests`, with its import. The request is prepared by hand so the URL is sent exactly as written. */
export function pythonSnippet(request: CheckedRequest): string {
  const lines = ['import requests', '', `url = ${pyString(request.url)}`];
  const arguments_ = [pyString(request.method), 'url'];
  if (request.headers.length > 0) {
    lines.push('headers = {');
    for (const [name, value] of request.headers) lines.push(`    ${pyString(name)}: ${headerValue(value)},`);
    lines.push('}');
    arguments_.push('headers=headers');
  }
  if (request.body !== undefined) {
    lines.push(`body = ${request.body.includes('\n') ? pyTripleQuoted(request.body) : pyString(request.body)}`);
    arguments_.push('data=body.encode()');
  }
  lines.push(
    '',
    `request = requests.Request(${arguments_.join(', ')}).prepare()`,
    'request.url = url  # requests would re-encode the URL; send it as written',
    'response = requests.Session().send(request)',
    'print(response.status_code)',
    'print(response.text)',
  );
  return lines.join('\n');
}

// http.client encodes str header values as Latin-1; bytes are sent as they are, so non-ASCII goes as UTF-8.
function headerValue(value: string): string {
  return /[^\x00-\x7F]/.test(value) ? `${pyString(value)}.encode()` : pyString(value);
}

function pyString(text: string): string {
  if (isPlainText(text, false)) return `'${text.replace(/['\\]/g, '\\$&')}'`;
  return `'${text.replace(SINGLE_LINE_SPECIAL, pyEscape)}'`;
}

function pyTripleQuoted(text: string): string {
  if (isPlainText(text, true)) return `'''${text.replace(/['\\]/g, '\\$&')}'''`;
  return `'''${text.replace(TRIPLE_QUOTED_SPECIAL, pyEscape)}'''`;
}

function pyEscape(character: string): string {
  switch (character) {
    case "'": return "\\'";
    case '\\': return '\\\\';
    case '\n': return '\\n';
    case '\r': return '\\r'; // a raw CR in source would be read as a line end
    case '\t': return '\\t';
  }
  const codePoint = character.codePointAt(0)!;
  return codePoint > 0xffff ? `\\U${hex(codePoint, 8)}` : `\\u${hex(codePoint, 4)}`;
}
