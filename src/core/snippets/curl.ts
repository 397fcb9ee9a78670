import { InvalidArgumentError } from '../errors.js';
import { isDoubleQuoteSafe, quotedWord, shellWord } from './shell-quoting.js';
import type { CheckedRequest } from './snippet-request.js';

/**
 * The spec's curl shape: `curl -X <METHOD> <URL> \`, one `  -H "<name>: <value>" \` per header, `  -d '<body>'`.
 * It deviates only where the literal shape would send something else: see the README's "Snippets" section.
 */
export function curlSnippet(request: CheckedRequest): string {
  // `-X HEAD` would wait for a body that never comes; `-I` is curl's HEAD.
  const start = request.method === 'HEAD' ? 'curl -I' : `curl -X ${shellWord(request.method)}`;
  let snippet = `${start} ${shellWord(request.url)}`;
  for (const [name, value] of request.headers) snippet += ` \\\n  -H ${headerArgument(name, value, request.printable)}`;
  if (request.body !== undefined) snippet += ` \\\n  ${bodyOption(request.body)} ${quotedWord(request.body, request.printable)}`;
  return snippet;
}

function headerArgument(name: string, value: string, knownPrintable: boolean): string {
  // `-H "Name:"` would remove the header; `Name;` is curl's spelling of an empty value.
  const header = value === '' ? `${name};` : `${name}: ${value}`;
  // Name and value are tested apart: `header` is a concatenation that a regex would first have to copy.
  return isDoubleQuoteSafe(name, true) && isDoubleQuoteSafe(value, knownPrintable) ? `"${header}"` : quotedWord(header, knownPrintable);
}

function bodyOption(body: string): string {
  if (body.includes('\0')) {
    throw new InvalidArgumentError('request.body', body, 'contains a NUL character, which no shell argument can carry; use another snippet language for this body');
  }
  // `-d @name` would upload the file `name`; `--data-raw` sends the text as written.
  return body.startsWith('@') ? '--data-raw' : '-d';
}
