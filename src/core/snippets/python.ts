import { backslashEscape, escapeSingleQuoted, fixedWidthUnicode } from './backslash-escapes.js';
import { INVISIBLE, isPlainText } from './invisible-characters.js';
import type { CheckedRequest } from './snippet-request.js';

const TRIPLE_QUOTED_SPECIAL = new RegExp(`['\\\\]|(?!\\n)${INVISIBLE}`, 'gu');
const SINGLE_LINE_SPECIAL = new RegExp(`['\\\\]|${INVISIBLE}`, 'gu');

/** `requests`, with its import. The request is prepared by hand so the URL is sent exactly as written. */
export function pythonSnippet(request: CheckedRequest): string {
  const { body, printable } = request;
  // The URL, the method and the header names are printable ASCII (checked).
  let snippet = `import requests\n\nurl = ${pyString(request.url, true)}\n`;
  let arguments_ = `${pyString(request.method, true)}, url`;
  if (request.headers.length > 0) {
    snippet += 'headers = {\n';
    for (const [name, value] of request.headers) snippet += `    ${pyString(name, true)}: ${headerValue(value, printable)},\n`;
    snippet += '}\n';
    arguments_ += ', headers=headers';
  }
  if (body !== undefined) {
    snippet += `body = ${body.includes('\n') ? pyTripleQuoted(body, printable) : pyString(body, printable)}\n`;
    arguments_ += ', data=body.encode()';
  }
  return `${snippet}
request = requests.Request(${arguments_}).prepare()
request.url = url  # requests would re-encode the URL; send it as written
response = requests.Session().send(request)
print(response.status_code)
print(response.text)`;
}

// http.client encodes str header values as Latin-1; bytes are sent as they are, so non-ASCII goes as UTF-8. So does
// urllib3's marker for "send no such header" (@@@SKIP_HEADER@@@), which as a str it drops or refuses.
function headerValue(value: string, knownPrintable: boolean): string {
  return pyString(value, knownPrintable) + (/[^\x00-\x7F]|^@@@S/.test(value) ? '.encode()' : '');
}

// `knownPrintable`: the caller knows `text` is printable ASCII, so the scan for the rest is skipped.
function pyString(text: string, knownPrintable: boolean): string {
  if (knownPrintable || isPlainText(text, false)) return `'${escapeSingleQuoted(text)}'`;
  return `'${text.replace(SINGLE_LINE_SPECIAL, pyEscape)}'`;
}

function pyTripleQuoted(text: string, knownPrintable: boolean): string {
  if (knownPrintable || isPlainText(text, true)) return `'''${escapeSingleQuoted(text)}'''`;
  return `'''${text.replace(TRIPLE_QUOTED_SPECIAL, pyEscape)}'''`;
}

// A raw CR in source would be read as a line end, so it is escaped too.
function pyEscape(character: string): string {
  return backslashEscape(character, fixedWidthUnicode);
}
