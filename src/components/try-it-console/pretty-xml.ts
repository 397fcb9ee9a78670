// XML laid out one element per line, as JSON is, for the data that APIs send (SOAP, RSS, feeds, records). Only the
// whitespace between tags changes, which such data does not read; text that sits beside child elements (a document
// such as XHTML, where it does count) and anything not well-formed are shown as sent instead.

// JSON's indent, and its deepest indented level: indenting every level grows the text with the square of the depth.
import { INDENT, MAX_INDENTED_DEPTH } from './pretty-json.js';

// One token, from where the last ended: a comment, a CDATA section, a processing instruction, a declaration without an
// internal subset, a tag (its quoted attribute values may hold ">"), or text.
const XML_TOKEN = /<!--[^]*?-->|<!\[CDATA\[[^]*?\]\]>|<\?[^]*?\?>|<![^[>]*>|<\/?[^\s<>"'/=!?]+(?:\s+[^\s<>"'/=]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*\/?>|[^<]+/y;
const TAG_NAME = /^<\/?([^\s/>]+)/;

/** Text, or a CDATA section, which is text too: what an element holding only text holds. */
const isText = (token: string) => !token.startsWith('<') || token.startsWith('<![CDATA[');

/**
 * `xml` with each element, comment and declaration on a line of its own, indented two spaces a level; an element
 * holding only text keeps it on its line, as sent. `undefined` when `xml` is not a well-formed document this can lay
 * out (text beside child elements, `xml:space="preserve"`, a DOCTYPE with an internal subset, tags that do not pair
 * up) or when the layout would be longer than `maxLength`.
 */
export function prettyXml(xml: string, maxLength = Infinity): string | undefined {
  if (/xml:space\s*=\s*["']preserve/.test(xml)) return undefined;
  const tokens: string[] = [];
  let read = 0;
  XML_TOKEN.lastIndex = 0;
  for (let match = XML_TOKEN.exec(xml); match !== null; match = XML_TOKEN.exec(xml)) {
    tokens.push(match[0]);
    read += match[0].length;
  }
  if (read !== xml.length) return undefined; // a "<" that starts no token
  const open: string[] = []; // names of the elements the next token is inside
  let out = '';
  for (let index = 0; index < tokens.length; index += 1) {
    if (out.length > maxLength) return undefined;
    const token = tokens[index]!;
    if (isText(token)) {
      // Text beside other content, where it may count: nothing moves. XML's whitespace is these four alone (a
      // no-break space is text).
      if (/[^ \t\r\n]/.test(token)) return undefined;
      continue; // whitespace between tags
    }
    const name = TAG_NAME.exec(token)![1];
    const isClose = token.startsWith('</');
    if (isClose && open.pop() !== name) return undefined;
    out += `${out && '\n'}${INDENT.repeat(Math.min(open.length, MAX_INDENTED_DEPTH))}`;
    if (isClose || /^<[!?]|\/>$/.test(token)) {
      out += token;
      continue;
    }
    // An element holding only text (or nothing) stays on one line with it, the text exactly as sent.
    let end = index + 1;
    while (end < tokens.length && isText(tokens[end]!)) end += 1;
    const close = tokens[end];
    if (close?.startsWith('</') && TAG_NAME.exec(close)![1] === name) {
      out += tokens.slice(index, end + 1).join('');
      index = end;
    } else {
      out += token;
      open.push(name!);
    }
  }
  return open.length === 0 && out.length <= maxLength ? out : undefined;
}
