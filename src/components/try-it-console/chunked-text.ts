import { html, type TemplateResult } from 'lit';

/** Texts up to this many characters are laid out whole, as one text node: quick at any size below it. */
const CHUNKED_FROM = 32 * 1024;
/** A block closes at the first line end after this many lines, or this many characters. */
const BLOCK_LINES = 100;
const BLOCK_CHARACTERS = 8 * 1024;

/**
 * A long text (a body shown up to the display limit, pretty-printed) as blocks of lines that the browser lays out
 * only when scrolled near (`content-visibility: auto`, see `.text-block` in the styles): laid out whole, 360,000
 * characters of JSON were a 250 ms task on a slow machine, the page frozen. The line end between two blocks is left
 * out, the blocks' edge standing for it: the text reads, selects, copies and is found with Ctrl+F as one. A shorter
 * text, or one without line ends, is given back as it is.
 */
export function chunkedText(text: string): string | TemplateResult[] {
  if (text.length <= CHUNKED_FROM) return text;
  const blocks: TemplateResult[] = [];
  let start = 0;
  while (start < text.length) {
    const end = blockEnd(text, start);
    blocks.push(html`<span class="text-block">${text.slice(start, end)}</span>`);
    start = end + 1;
  }
  return blocks.length === 1 ? text : blocks;
}

/**
 * Where the block starting at `start` ends: at a line end after BLOCK_LINES lines or BLOCK_CHARACTERS characters, or
 * the end of the text. Never after an empty line: the block would end in a line end, which shows no line of its own at
 * a block's end, and the blank line would be lost (one at a block's start shows).
 */
function blockEnd(text: string, start: number): number {
  let lines = 0;
  let at = start;
  for (;;) {
    const lineEnd = text.indexOf('\n', at);
    if (lineEnd === -1 || lineEnd === text.length - 1) return text.length;
    lines += 1;
    at = lineEnd + 1;
    const full = lines >= BLOCK_LINES || at - start >= BLOCK_CHARACTERS;
    if (full && lineEnd > start && text[lineEnd - 1] !== '\n') return lineEnd;
  }
}
