import { INVISIBLE_CLASS, hex, isPlainText } from './invisible-characters.js';
import type { CheckedRequest } from './snippet-request.js';

const NEEDS_DOUBLE_QUOTES = new RegExp(`(?!\\n)[${INVISIBLE_CLASS}]`, 'u');
const DOUBLE_QUOTED_SPECIAL = new RegExp(`["\\\\$]|[${INVISIBLE_CLASS}]`, 'gu');

/** PHP with the curl extension (`<?php`, `curl_init`), run with `php file.php`. */
export function phpSnippet(request: CheckedRequest): string {
  const options: string[] = [];
  // A custom request method would make libcurl wait for a HEAD response body that never comes.
  options.push(request.method === 'HEAD' ? '    CURLOPT_NOBODY => true,' : `    CURLOPT_CUSTOMREQUEST => ${phpString(request.method)},`);
  if (request.headers.length > 0) {
    options.push('    CURLOPT_HTTPHEADER => [');
    // libcurl reads `Name:` as "remove this header"; `Name;` is its spelling of an empty value.
    for (const [name, value] of request.headers) options.push(`        ${phpString(value === '' ? `${name};` : `${name}: ${value}`)},`);
    options.push('    ],');
  }
  if (request.body !== undefined) options.push(`    CURLOPT_POSTFIELDS => ${phpString(request.body)},`);
  options.push('    CURLOPT_RETURNTRANSFER => true,');
  return [
    '<?php',
    '',
    `$curl = curl_init(${phpString(request.url)});`,
    'curl_setopt_array($curl, [',
    ...options,
    ']);',
    '$responseBody = curl_exec($curl);',
    'if ($responseBody === false) {',
    '    fwrite(STDERR, curl_error($curl) . PHP_EOL);',
    '    exit(1);',
    '}',
    'echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), PHP_EOL;',
    'echo $responseBody, PHP_EOL;',
    'curl_close($curl);',
  ].join('\n');
}

// Single quotes interpolate nothing (`$x`, `{$x}` stay text); double quotes only when an escape is needed.
function phpString(text: string): string {
  if (isPlainText(text, true) || !NEEDS_DOUBLE_QUOTES.test(text)) return `'${text.replace(/['\\]/g, '\\$&')}'`;
  return `"${text.replace(DOUBLE_QUOTED_SPECIAL, phpEscape)}"`;
}

function phpEscape(character: string): string {
  switch (character) {
    case '"': return '\\"';
    case '\\': return '\\\\';
    case '$': return '\\$';
    case '\n': return '\\n';
    case '\r': return '\\r';
    case '\t': return '\\t';
  }
  return `\\u{${hex(character.codePointAt(0)!, 1)}}`;
}
