import { InvalidArgumentError } from '../errors.js';
import { backslashEscape, fixedWidthUnicode } from './backslash-escapes.js';
import { INVISIBLE, isPlainText } from './invisible-characters.js';
import { headerField, type CheckedRequest } from './snippet-request.js';

const INTERPRETED_SPECIAL = new RegExp(`["\\\\]|${INVISIBLE}`, 'gu');

// A lowercase letter that starts a word, or an uppercase one inside a word.
const NOT_CANONICAL = /(?:^|-)[a-z]|[^-][A-Z]/;
// Go's client looks these up under their canonical names: under any other spelling it adds its own User-Agent
// as well, or asks for gzip (and unzips the reply) although the request set Accept-Encoding or Range. Empty, they
// count as not set: it sends no User-Agent, or asks for gzip besides.
const READ_BY_GO = /^(?:user-agent|accept-encoding|range)$/i;

const SEND_AND_PRINT = `\tresponse, err := http.DefaultClient.Do(request)
\tif err != nil {
\t\tpanic(err)
\t}
\tdefer response.Body.Close()
\tresponseBody, err := io.ReadAll(response.Body)
\tif err != nil {
\t\tpanic(err)
\t}
\tfmt.Println(response.StatusCode)
\tfmt.Println(string(responseBody))
}`;

// A raw string cannot hold a backquote, and Go drops carriage returns from raw strings.
const NOT_FOR_RAW_STRING = new RegExp(`\`|(?!\\n)${INVISIBLE}`, 'u');

/** A complete `package main` program using `net/http`; `go run` it. */
export function goSnippet(request: CheckedRequest): string {
  const { body, printable } = request;
  let snippet = `package main\n\nimport (\n\t"fmt"\n\t"io"\n\t"net/http"\n${body === undefined ? '' : '\t"strings"\n'})\n\nfunc main() {\n`;
  if (body !== undefined) snippet += `\tbody := strings.NewReader(${goString(body, printable)})\n`;
  // The URL, the method and the header names are printable ASCII (checked).
  snippet += `\trequest, err := http.NewRequest(${goString(request.method, true)}, ${goString(request.url, true)}, ${body === undefined ? 'nil' : 'body'})\n\tif err != nil {\n\t\tpanic(err)\n\t}\n`;
  let explained = false;
  for (const [name, value] of request.headers) {
    const readByGo = READ_BY_GO.test(name);
    if (readByGo && value === '') {
      throw new InvalidArgumentError(headerField(name), value, "Go's client cannot send it empty; use another snippet language");
    }
    // Header.Set writes the name as http.CanonicalHeaderKey does: first letter and letters after `-` uppercase, the
    // rest lowercase. One test tells whether that leaves the name as it is.
    if (readByGo || !NOT_CANONICAL.test(name)) {
      snippet += `\trequest.Header.Set(${goString(name, true)}, ${goString(value, printable)})\n`;
    } else {
      if (!explained) snippet += '\t// Assigned directly: Header.Set would change the case of the name.\n';
      explained = true;
      snippet += `\trequest.Header[${goString(name, true)}] = []string{${goString(value, printable)}}\n`;
    }
  }
  return snippet + SEND_AND_PRINT;
}

// `knownPrintable`: the caller knows `text` is printable ASCII and newlines, so the scans for the rest are skipped.
function goString(text: string, knownPrintable: boolean): string {
  if (knownPrintable || isPlainText(text, true)) {
    // Searches are much cheaper than escaping; a raw string spares the quotes of a JSON body their backslashes.
    if (!text.includes('"') && !text.includes('\\') && !text.includes('\n')) return `"${text}"`;
    if (!text.includes('`')) return `\`${text}\``;
  } else if (text.includes('\n') && !NOT_FOR_RAW_STRING.test(text)) {
    return `\`${text}\``;
  }
  return `"${text.replace(INTERPRETED_SPECIAL, goEscape)}"`;
}

function goEscape(character: string): string {
  return backslashEscape(character, fixedWidthUnicode);
}
