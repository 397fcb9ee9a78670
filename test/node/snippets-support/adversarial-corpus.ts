// Requests built to break snippet generators: every character a shell, a string literal or an HTTP client treats
// specially. Each case's `path` is appended to `<origin>/<run key>`, so the path and query are exact too.
import type { SnippetLanguage } from '../../../src/core/index.js';

export interface CorpusCase {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Languages that refuse this request on purpose (tested separately), with the reason. */
  refusedBy?: Partial<Record<SnippetLanguage, string>>;
}

const thirtyHeaders = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`X-Header-${i}`, `value ${i} "q" 'q' $v \`b\` !x %s \\`]));
// Linux refuses a program argument of 131,072 bytes or more (final NUL included): the curl snippet must pipe such
// a body from the shell's printf. Sizes are UTF-8 bytes; the euro sign is three.
const ARGUMENT_LIMIT = 131072;
export const LONG_BODIES = {
  justFits: 'f'.repeat(ARGUMENT_LIMIT - 1),
  tooLong: 'x'.repeat(ARGUMENT_LIMIT),
  tooLongInUtf8: '€'.repeat(70_000),
  tooLongWithEscapes: `\tit's "q" $HOME \`id\` !! %s \\ @x\r\n${'y'.repeat(ARGUMENT_LIMIT)}\n`,
};
const thirtyKilobytes = Array.from({ length: 30 * 1024 / 32 }, (_, i) => `${String(i).padStart(5, '0')} 'a' "b" $c \`d\` !e \\ %s\n`.slice(0, 31) + '\n').join('');

export const CORPUS: CorpusCase[] = [
  { name: 'plain GET', method: 'GET', path: '/pets' },
  { name: 'lowercase method with a JSON body', method: 'post', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: '{"name":"Rex","tags":["a","b"]}' },
  { name: 'custom method', method: 'PURGE', path: '/cache/item' },
  { name: 'lowercase custom method', method: 'propfind', path: '/dav', headers: { Depth: '1' } },
  { name: 'DELETE with a body', method: 'DELETE', path: '/items', body: 'ids=1,2,3' },
  { name: 'HEAD', method: 'HEAD', path: '/pets/1', headers: { Accept: 'application/json' } },
  { name: 'double quotes', method: 'POST', path: '/q', headers: { 'X-Quote': 'say "hi" and ""' }, body: '"just" "quotes" "' },
  { name: 'single quotes', method: 'POST', path: '/q', headers: { 'X-Quote': "it's 'quoted' ''" }, body: "it's '\\'' and '\"'\"' and '" },
  { name: 'backslashes', method: 'PUT', path: '/b', headers: { 'X-Path': 'C:\\new\\table\\x41\\u0041\\\\' }, body: '\\n is not a newline, \\t not a tab, \\\\ two, \\x41 \\u{41} \\' },
  { name: 'dollar expansions', method: 'POST', path: '/d', headers: { 'X-Dollar': '$HOME ${HOME} $(id) {$x} $$ $0 $' }, body: '$HOME ${HOME:-x} $(id) {$x} ${x} $$ $1 $' },
  { name: 'backticks', method: 'POST', path: '/t', headers: { 'X-Tick': '`id` ``' }, body: '`id` ``` `echo hi` ${`x`}' },
  { name: 'history expansion', method: 'POST', path: '/h', headers: { 'X-Bang': 'hi!! !$ !-1 !# !x' }, body: 'hello!world !! !$ !-1 ^a^b' },
  // Interactive bash and zsh take `^old^new` at the start of any line, even a line inside quotes, as "the last command
  // with old replaced by new".
  { name: 'quick substitution at the start of a line', method: 'POST', path: '/caret', body: 'x\n^a\n{\n^x^y^\n}\n^' },
  { name: 'quick substitution after a tab', method: 'POST', path: '/caret-tab', body: 'tab\there\n^a^b' },
  { name: 'printf verbs and percent', method: 'POST', path: '/p', headers: { 'X-Format': '%s %d %v %n %% %(x)s %1$s' }, body: '%s %d %v %q %n %% %(name)s {0} %1$s %' },
  { name: 'multi-line JSON body', method: 'POST', path: '/json', headers: { 'Content-Type': 'application/json' }, body: '{\n  "a": "b\\n",\n  "c": [1, 2]\n}\n' },
  { name: 'CRLF and lone CR in the body', method: 'POST', path: '/crlf', body: 'line1\r\nline2\rline3\n\r\n' },
  { name: 'tabs', method: 'POST', path: '/tab', headers: { 'X-Tab': 'a\tb' }, body: '\tindented\tand\ttabbed\t' },
  { name: 'non-ASCII text', method: 'POST', path: '/i18n', headers: { 'X-Name': 'café Ωmega привет 日本' }, body: 'café naïve Ωmega привет 日本語 עברית' },
  { name: 'emoji and ZWJ sequences', method: 'POST', path: '/emoji', headers: { 'X-Emoji': '👩‍💻 🏳️‍🌈' }, body: '👍 👩‍💻 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷' },
  { name: 'BOM and invisible characters', method: 'POST', path: '/invisible', headers: { 'X-Invisible': 'a\u200Bb\u00A0c\uFEFF' }, body: '\uFEFFBOM, zero\u200Bwidth, soft\u00ADhyphen, \u202Ertl\u202C, nbsp\u00A0, \u2028 \u2029, \u2060, \uFFFE, \u{E000}, \u{10FFFD}' },
  { name: 'control characters', method: 'POST', path: '/ctl', body: 'bell\u0007 esc\u001b[31mred\u001b[0m del\u007f c1\u0085\u009b' },
  { name: 'body starting with @', method: 'POST', path: '/at', body: '@/etc/passwd' },
  { name: 'body and header starting with -', method: 'POST', path: '/dash', headers: { 'X-Dash': '-H "x: y"' }, body: '--data-binary @x -d' },
  { name: 'header value starting with @', method: 'GET', path: '/at-header', headers: { 'X-At': '@/etc/hostname' } },
  { name: 'thirty headers', method: 'GET', path: '/many', headers: thirtyHeaders },
  { name: 'thirty kilobyte body', method: 'POST', path: '/big', headers: { 'Content-Type': 'text/plain' }, body: thirtyKilobytes },
  { name: 'empty body', method: 'POST', path: '/empty', body: '' },
  { name: 'no body', method: 'POST', path: '/none' },
  { name: 'query with shell characters', method: 'GET', path: '/search?q=$HOME&x=(1)&y=*&z=!x;w=a,b+c&v=~u@h:p/' },
  { name: 'percent-encoded path and query', method: 'GET', path: '/files/a%20b/%2F%41%7E/%E2%82%AC?q=%26%3D%23&r=%25' },
  { name: 'lowercase percent escapes', method: 'GET', path: '/a%2fb%7e%c3%a9?x=%2f' },
  { name: 'single quote in the query', method: 'GET', path: "/q?name='x'&it's=1" },
  { name: 'fragment', method: 'GET', path: '/page?a=1#section-2' },
  { name: 'empty query', method: 'GET', path: '/page?' },
  // Only a `?` that starts an empty query is dropped; one inside or ending a query is sent.
  { name: 'question marks in the query, one ending it', method: 'GET', path: '/page??a=1?' },
  { name: 'empty header value', method: 'GET', path: '/empty-header', headers: { 'X-Empty': '', 'X-After': 'ok' } },
  { name: 'header name case', method: 'GET', path: '/case', headers: { 'x-lower-case': 'l', 'X-UPPER': 'U', 'x-MiXeD': 'm', accept: 'text/plain' } },
  // Names an object literal or a map could take for its own (JSON.parse makes `__proto__` an own property).
  { name: 'headers named like object keys', method: 'GET', path: '/object-keys', headers: JSON.parse('{"constructor": "c", "toString": "t", "hasOwnProperty": "h", "__PROTO__": "P"}') as Record<string, string> },
  { name: 'header named __proto__', method: 'GET', path: '/proto', headers: JSON.parse('{"__proto__": "p", "X-After": "a"}') as Record<string, string>, refusedBy: { javascript: "Node's fetch loses it" } },
  { name: 'whitespace around a header value', method: 'GET', path: '/ows', headers: { 'X-Padded': '  padded value \t' } },
  { name: 'NUL in the body', method: 'POST', path: '/nul', body: 'before\u0000after', refusedBy: { curl: 'a shell argument cannot carry NUL' } },
  { name: 'GET with a body', method: 'GET', path: '/get-body', body: '{"q":1}', refusedBy: { javascript: 'fetch cannot send a GET body' } },
  { name: 'string delimiters of every language', method: 'POST', path: '/delims', headers: { 'X-Delims': '""" \'\'\' ``` <?php ?> */ //' }, body: "\"\"\" ''' ``` <?php echo 1; ?> */ // -- # EOF\nEOF\n'''\n\"\"\"\n`\n" },
  { name: 'body ending with a backslash', method: 'POST', path: '/trailing', body: 'ends with \\' },
  { name: 'body ending with a quote', method: 'POST', path: '/trailing-quote', body: "multi\nline ending with '" },
  { name: 'body one byte under the argument limit', method: 'POST', path: '/arg-fits', body: LONG_BODIES.justFits },
  { name: 'body at the argument limit', method: 'PUT', path: '/arg-limit', headers: { 'Content-Type': 'text/plain' }, body: LONG_BODIES.tooLong },
  { name: 'body over the argument limit in UTF-8 bytes', method: 'POST', path: '/arg-utf8', body: LONG_BODIES.tooLongInUtf8 },
  { name: 'long body with escapes and shell characters', method: 'POST', path: '/arg-escapes', body: LONG_BODIES.tooLongWithEscapes },
  { name: 'long body starting with @', method: 'POST', path: '/arg-at', body: `@${LONG_BODIES.tooLong}` },
  // Go reads these three under their canonical names; under another spelling it added its own as well.
  { name: 'lowercase user-agent and accept-encoding', method: 'GET', path: '/lower-ua', headers: { 'user-agent': 'mine/1.0', 'accept-encoding': 'identity', accept: 'x/y' } },
  { name: 'lowercase range', method: 'GET', path: '/lower-range', headers: { range: 'bytes=0-5' } },
  { name: 'Expect: 100-continue', method: 'POST', path: '/expect', headers: { Expect: '100-continue' }, body: 'waits for 100', refusedBy: { javascript: 'fetch cannot send Expect' } },
];
