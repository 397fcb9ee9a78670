import { backslashEscape, escapeSingleQuoted } from './backslash-escapes.js';
import { INVISIBLE, hasInvisibleBesidesNewline, hex } from './invisible-characters.js';
import { checkLibcurlRequestHead, libcurlHeader } from './libcurl-request-head.js';
import type { CheckedRequest } from './snippet-request.js';

const SEND_AND_PRINT = `    CURLOPT_RETURNTRANSFER => true,
]);
$responseBody = curl_exec($curl);
if ($responseBody === false) {
    fwrite(STDERR, curl_error($curl) . PHP_EOL);
    exit(1);
}
echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), PHP_EOL;
echo $responseBody, PHP_EOL;
curl_close($curl);`;

const DOUBLE_QUOTED_SPECIAL = new RegExp(`["\\\\$]|${INVISIBLE}`, 'gu');

/** PHP with the curl extension (`<?php`, `curl_init`), run with `php file.php`. */
export function phpSnippet(request: CheckedRequest): string {
  const { body, printable } = request;
  checkLibcurlRequestHead(request);
  // The URL and the method are printable ASCII (checked).
  let snippet = `<?php\n\n$curl = curl_init(${phpString(request.url, true)});\ncurl_setopt_array($curl, [\n`;
  // A custom request method would make libcurl wait for a HEAD response body that never comes.
  snippet += request.method === 'HEAD' ? '    CURLOPT_NOBODY => true,\n' : `    CURLOPT_CUSTOMREQUEST => ${phpString(request.method, true)},\n`;
  if (request.headers.length > 0) {
    snippet += '    CURLOPT_HTTPHEADER => [\n';
    for (const [name, value] of request.headers) snippet += `        ${phpString(libcurlHeader(name, value), printable)},\n`;
    snippet += '    ],\n';
  }
  if (body !== undefined) snippet += `    CURLOPT_POSTFIELDS => ${phpString(body, printable)},\n`;
  return snippet + SEND_AND_PRINT;
}

// Single quotes interpolate nothing (`$x`, `{$x}` stay text); double quotes only when an escape is needed.
// `knownPrintable`: the caller knows `text` is printable ASCII and newlines, so the scan for the rest is skipped.
function phpString(text: string, knownPrintable: boolean): string {
  if (knownPrintable || !hasInvisibleBesidesNewline(text)) return `'${escapeSingleQuoted(text)}'`;
  return `"${text.replace(DOUBLE_QUOTED_SPECIAL, phpEscape)}"`;
}

function phpEscape(character: string): string {
  return backslashEscape(character, (codePoint) => `\\u{${hex(codePoint, 1)}}`);
}
