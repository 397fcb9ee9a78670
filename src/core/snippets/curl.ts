import { InvalidArgumentError } from '../errors.js';
import { checkLibcurlRequestHead, libcurlHeader, utf8Length } from './libcurl-request-head.js';
import { isDoubleQuoteSafe, quotedWord, shellWord } from './shell-quoting.js';
import { headerField, type CheckedRequest } from './snippet-request.js';

// Linux refuses to start a program with an argument of 128 KiB or more, final NUL included (MAX_ARG_STRLEN):
// the shell reports "Argument list too long".
const MAX_ARGUMENT_BYTES = 131071;
const TOO_LONG = 'is too long for one shell argument (128 KiB); use another snippet language';

/**
 * The spec's curl shape: `curl -X <METHOD> <URL> \`, one `  -H "<name>: <value>" \` per header, `  -d '<body>'`.
 * It deviates only where the literal shape would send something else: see the README's "Snippets" section.
 */
export function curlSnippet(request: CheckedRequest): string {
  const { body, printable } = request;
  // `-X HEAD` would wait for a body that never comes; `-I` is curl's HEAD.
  const start = request.method === 'HEAD' ? 'curl -I' : `curl -X ${shellWord(request.method)}`;
  if (request.url.length > MAX_ARGUMENT_BYTES) {
    throw new InvalidArgumentError('request.url', request.url, TOO_LONG);
  }
  let snippet = `${start} ${shellWord(request.url)}`;
  for (const [name, value] of request.headers) {
    const header = libcurlHeader(name, value);
    if (isOverArgumentLimit(header, printable)) {
      throw new InvalidArgumentError(headerField(name), value, TOO_LONG);
    }
    // Name and value are tested apart: `header` is a concatenation that a regex would first have to copy.
    const doubleQuoted = isDoubleQuoteSafe(name, true) && isDoubleQuoteSafe(value, printable);
    snippet += ` \\\n  -H ${doubleQuoted ? `"${header}"` : quotedWord(header, printable)}`;
  }
  // After the checks above, whose messages say more for curl.
  checkLibcurlRequestHead(request);
  if (body === undefined) return snippet;
  if (body.includes('\0')) {
    throw new InvalidArgumentError('request.body', body, 'contains a NUL character, which no shell argument can carry; use another snippet language');
  }
  if (isOverArgumentLimit(body, printable)) {
    // The shell's own printf takes any length (no program is started for it); curl reads the body from the pipe.
    return `printf '%s' ${quotedWord(body, printable)} | ${snippet} \\\n  --data-binary @-`;
  }
  // `-d @name` would upload the file `name`; `--data-raw` sends the text as written.
  return `${snippet} \\\n  ${body.startsWith('@') ? '--data-raw' : '-d'} ${quotedWord(body, printable)}`;
}

// `knownPrintable`: the caller knows `text` is printable ASCII and newlines, one byte per character.
function isOverArgumentLimit(text: string, knownPrintable: boolean): boolean {
  return utf8Length(text, knownPrintable) > MAX_ARGUMENT_BYTES;
}
