// Pretty-printing that changes nothing but whitespace. JSON.parse + JSON.stringify would show a different
// document than the server sent: integers past 2^53 rounded (12345678901234567890 as 12345678901234567000),
// 1.10 as 1.1, 1e3 as 1000, and of two equal keys only the last.

export const INDENT = '  ';
// Levels deeper than this are written on one line: indenting every level grows the text with the square of the
// depth (20 KB of nested arrays laid out as 200 MB).
export const MAX_INDENTED_DEPTH = 64;
const WHITESPACE = /[ \t\n\r]*/y;
const STRUCTURAL = /[{}[\],:"]/g;
// A string literal, escapes included; unrolled (no alternation per character) so a megabyte string costs no backtracking.
const STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/y;

/**
 * `json` re-indented by two spaces, as `JSON.stringify(value, null, 2)` lays it out, with every string, number and
 * key kept exactly as written. Levels past 64 are written as `JSON.stringify(value)` would, on one line. `json` must
 * be valid JSON (check it with `JSON.parse` first), or the start of a document, laid out up to where it is cut.
 * `undefined` when the layout would be longer than `maxLength` (given up as soon as it is, not built first), or when
 * a bracket closes nothing.
 */
export function prettyJson(json: string, maxLength = Infinity): string | undefined {
  let out = '';
  let depth = 0;
  let position = 0;
  STRUCTURAL.lastIndex = 0;
  for (let match = STRUCTURAL.exec(json); match !== null; match = STRUCTURAL.exec(json)) {
    if (out.length > maxLength) return undefined;
    // Between two structural characters: a number or a literal (true, false, null), possibly with whitespace.
    out += json.slice(position, match.index).trim();
    const character = match[0];
    let next = match.index + 1;
    if (character === '"') {
      next = endOfString(json, match.index);
      out += json.slice(match.index, next);
    } else if (character === ':') {
      out += depth > MAX_INDENTED_DEPTH ? ':' : ': ';
    } else if (character === ',') {
      out += `,${lineBreak(depth)}`;
    } else if (character === '{' || character === '[') {
      WHITESPACE.lastIndex = next;
      WHITESPACE.test(json);
      const closing = character === '{' ? '}' : ']';
      if (json[WHITESPACE.lastIndex] === closing) {
        // An empty object or array stays on one line.
        out += character + closing;
        next = WHITESPACE.lastIndex + 1;
      } else {
        depth += 1;
        out += `${character}${lineBreak(depth)}`;
      }
    } else {
      // A bracket closing nothing: text never parsed (the start of a document shown in part) that is not JSON.
      if (depth === 0) return undefined;
      depth -= 1;
      // Only a level that was indented gets its closing bracket on a line of its own.
      out += `${depth < MAX_INDENTED_DEPTH ? lineBreak(depth) : ''}${character}`;
    }
    position = next;
    STRUCTURAL.lastIndex = next;
  }
  out += json.slice(position).trim();
  return out.length > maxLength ? undefined : out;
}

/** What goes before a value `depth` levels deep: a new line indented to it, or nothing past the indented levels. */
function lineBreak(depth: number): string {
  return depth > MAX_INDENTED_DEPTH ? '' : `\n${INDENT.repeat(depth)}`;
}

/**
 * The index just past the closing quote of the string that starts at `start` (its opening quote), or the end of
 * `json` for a string it cuts off (the start of a document shown in part).
 */
function endOfString(json: string, start: number): number {
  STRING.lastIndex = start;
  return STRING.test(json) ? STRING.lastIndex : json.length;
}
