import { scanPlaceholders } from '../../core/placeholders.js';
import { prettyJson } from './pretty-json.js';

// A placeholder's stand-in while the body is laid out: its index between private-use characters, which hold no
// whitespace or JSON punctuation for the layout to move.
const STAND_IN = /\uE000(\d+)\uE001/g;

/**
 * `body` laid out as the response panel lays out JSON, every value as typed, its `{{placeholders}}` kept where they
 * are: in strings, or standing for values (`{"id": {{id}}}`). Or, when it is not JSON, the parser's words, its position
 * counted in the body as typed.
 */
export function formatJsonBody(body: string): { text: string } | { problem: string } {
  const placeholders: string[] = [];
  let parsed = '';
  let laidOut = '';
  let position = 0;
  for (const { start, end } of scanPlaceholders(body)) {
    const before = body.slice(position, start);
    // A value of the placeholder's length to parse, so the parser's positions are those of the body as typed.
    parsed += before + '0'.padEnd(end - start);
    laidOut += `${before}\uE000${placeholders.push(body.slice(start, end)) - 1}\uE001`;
    position = end;
  }
  try {
    JSON.parse(parsed + body.slice(position));
  } catch (error) {
    return { problem: (error as Error).message };
  }
  return { text: prettyJson(laidOut + body.slice(position))!.replace(STAND_IN, (_, index: string) => placeholders[Number(index)]!) };
}
