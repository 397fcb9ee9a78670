import { mapTemplate } from '../../core/placeholders.js';
import { prettyJson } from './pretty-json.js';

/**
 * `body` laid out as the response panel lays out JSON, every value as typed, its `{{placeholders}}` kept where they
 * are: in strings, or standing for values (`{"id": {{id}}}`). Or, when it is not JSON, the parser's words, its position
 * and the text it quotes those of the body as typed.
 */
export function formatJsonBody(body: string): { text: string } | { problem: string } {
  // A placeholder's stand-in while the body is laid out: its index between two private-use characters that the body
  // does not hold, which are no whitespace or JSON punctuation for the layout to move.
  let mark = 0xe000;
  while (body.includes(String.fromCharCode(mark))) mark += 1;
  const marker = String.fromCharCode(mark);
  const placeholders: string[] = [];
  const same = (piece: string) => piece;
  // A value of the placeholder's length to parse, so the parser's positions are those of the body as typed.
  const parsed = mapTemplate(body, same, (written) => '0'.padEnd(written.length));
  const laidOut = mapTemplate(body, same, (written) => `${marker}${placeholders.push(written) - 1}${marker}`);
  try {
    JSON.parse(parsed);
  } catch (error) {
    return { problem: asTyped((error as Error).message, parsed, body) };
  }
  const text = prettyJson(laidOut)!;
  return { text: text.replace(new RegExp(`${marker}(\\d+)${marker}`, 'g'), (_, index: string) => placeholders[Number(index)]!) };
}

/**
 * The parser's message with the text it quotes (`Unexpected token ']', "[0     , ]" is not valid JSON`) taken from
 * the body as typed, which is as long: the reader never typed the stand-ins.
 */
function asTyped(message: string, parsed: string, body: string): string {
  // `, "text" is not valid JSON`, or with `...` outside the quotes where the text is cut.
  return message.replace(/, (?:\.\.\.)?"([^]*)"(?:\.\.\.)? is not valid JSON$/, (quote, excerpt: string) => {
    const at = parsed.indexOf(excerpt);
    // Found more than once, it is not known which: left as the parser wrote it.
    return at < 0 || at !== parsed.lastIndexOf(excerpt) ? quote : quote.replace(excerpt, () => body.slice(at, at + excerpt.length));
  });
}
