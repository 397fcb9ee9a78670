import type { ConsoleResponse } from '../../core/request-engine.js';
import { prettyJson } from './pretty-json.js';

/** How a response body is shown: pretty JSON, plain text, an image, or a note for other binary data. */
export type BodyPresentation =
  | { kind: 'empty' }
  | { kind: 'json'; text: string; highlight: boolean }
  | { kind: 'text'; text: string }
  | { kind: 'image' }
  | { kind: 'binary' };

/** JSON is pretty-printed up to this size; past it, parsing and re-printing would stall the page. */
const PRETTY_JSON_LIMIT = 1 << 20;
/**
 * The layout is shown up to 4 times the body (any layout up to 1 MB); past that it is mostly indentation, slow to
 * render (1.9 MB of it: a 340 ms task in Chromium), and the body is shown as sent instead. Levels past 64 are already
 * on one line, but a long array that deep still gains 130 characters per item.
 */
const PRETTY_GROWTH_LIMIT = 4;
const PRETTY_TEXT_FLOOR = 1 << 20;
/** Highlighting costs far more than printing: only small texts get colours, measured as laid out, as highlighted. */
const HIGHLIGHT_LIMIT = 100 * 1024;

const TEXTUAL_TYPE = /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|csv|graphql)\b/i;

export function presentBody(response: ConsoleResponse): BodyPresentation {
  if (response.size === 0) return { kind: 'empty' };
  const type = response.contentType.toLowerCase();
  // SVG is a document that can hold script: it is shown as text, never rendered.
  if (type.startsWith('image/') && !type.startsWith('image/svg')) return { kind: 'image' };
  if (!TEXTUAL_TYPE.test(type) && looksBinary(response.body)) return { kind: 'binary' };
  if (/[/+]json\b/.test(type) && !response.truncated && response.size <= PRETTY_JSON_LIMIT) {
    try {
      JSON.parse(response.text); // only to know it is JSON: the values are printed as sent
      const text = prettyJson(response.text, Math.max(PRETTY_GROWTH_LIMIT * response.text.length, PRETTY_TEXT_FLOOR));
      if (text !== undefined) return { kind: 'json', text, highlight: text.length <= HIGHLIGHT_LIMIT };
    } catch {
      // Not valid JSON after all: show it as the server sent it.
    }
  }
  return { kind: 'text', text: response.text };
}

/** A NUL byte, or many control characters, in the first kilobyte: not something to show as text. */
function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 1024);
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) controls += 1;
  }
  return controls > sample.length / 10;
}

/** `1.2 KB`, `3.4 MB`: sizes for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file name for downloading the body, from the URL's last segment and the content type. */
export function downloadName(response: ConsoleResponse): string {
  const last = new URL(response.request.url).pathname.split('/').filter(Boolean).at(-1) ?? 'response';
  if (/\.\w{1,5}$/.test(last)) return last;
  const subtype = /\/([\w.+-]+)/.exec(response.contentType)?.[1]?.toLowerCase() ?? 'octet-stream';
  const known: Record<string, string> = { plain: 'txt', 'octet-stream': 'bin', javascript: 'js', jpeg: 'jpg', 'svg+xml': 'svg' };
  const extension = known[subtype] ?? subtype.replace(/.*\+/, '');
  return `${last}.${extension}`;
}
