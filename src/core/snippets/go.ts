import { INVISIBLE_CLASS, hex, isPlainText } from './invisible-characters.js';
import type { CheckedRequest } from './snippet-request.js';

const INTERPRETED_SPECIAL = new RegExp(`["\\\\]|[${INVISIBLE_CLASS}]`, 'gu');
// A raw string cannot hold a backquote, and Go drops carriage returns from raw strings.
const NOT_FOR_RAW_STRING = new RegExp(`\`|(?!\\n)[${INVISIBLE_CLASS}]`, 'u');

/** A complete `package main` program using `net/http`; `go run` it. */
export function goSnippet(request: CheckedRequest): string {
  const lines = ['package main', '', 'import (', '\t"fmt"', '\t"io"', '\t"net/http"'];
  if (request.body !== undefined) lines.push('\t"strings"');
  lines.push(')', '', 'func main() {');
  if (request.body !== undefined) lines.push(`\tbody := strings.NewReader(${goString(request.body)})`);
  lines.push(
    `\trequest, err := http.NewRequest(${goString(request.method)}, ${goString(request.url)}, ${request.body === undefined ? 'nil' : 'body'})`,
    '\tif err != nil {',
    '\t\tpanic(err)',
    '\t}',
  );
  let explained = false;
  for (const [name, value] of request.headers) {
    if (canonicalHeaderKey(name) === name) {
      lines.push(`\trequest.Header.Set(${goString(name)}, ${goString(value)})`);
      continue;
    }
    if (!explained) lines.push('\t// Assigned directly: Header.Set would change the case of the name.');
    explained = true;
    lines.push(`\trequest.Header[${goString(name)}] = []string{${goString(value)}}`);
  }
  lines.push(
    '\tresponse, err := http.DefaultClient.Do(request)',
    '\tif err != nil {',
    '\t\tpanic(err)',
    '\t}',
    '\tdefer response.Body.Close()',
    '\tresponseBody, err := io.ReadAll(response.Body)',
    '\tif err != nil {',
    '\t\tpanic(err)',
    '\t}',
    '\tfmt.Println(response.StatusCode)',
    '\tfmt.Println(string(responseBody))',
    '}',
  );
  return lines.join('\n');
}

function goString(text: string): string {
  if (text.includes('\n') && (isPlainText(text, true) ? !text.includes('`') : !NOT_FOR_RAW_STRING.test(text))) return `\`${text}\``;
  // For printable ASCII, JSON's escapes (\" and \\ only) are exactly Go's, and JSON.stringify is fast.
  if (isPlainText(text, false)) return JSON.stringify(text);
  return `"${text.replace(INTERPRETED_SPECIAL, goEscape)}"`;
}

function goEscape(character: string): string {
  switch (character) {
    case '"': return '\\"';
    case '\\': return '\\\\';
    case '\n': return '\\n';
    case '\r': return '\\r';
    case '\t': return '\\t';
  }
  const codePoint = character.codePointAt(0)!;
  return codePoint > 0xffff ? `\\U${hex(codePoint, 8)}` : `\\u${hex(codePoint, 4)}`;
}

/** Go's `http.CanonicalHeaderKey`: first letter and letters after `-` uppercase, the rest lowercase. */
function canonicalHeaderKey(name: string): string {
  return name.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join('-');
}
