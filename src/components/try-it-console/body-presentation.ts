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

/** A part's size and its whole's, in exact bytes when rounded they would read the same (`256.0 KB of 256.0 KB`). */
export function formatBytesOf(part: number, whole: number): [string, string] {
  const [rounded, roundedWhole] = [formatBytes(part), formatBytes(whole)];
  if (rounded !== roundedWhole || part === whole) return [rounded, roundedWhole];
  return [`${part.toLocaleString('en')} B`, `${whole.toLocaleString('en')} B`];
}

/**
 * A file name for downloading the body: the one Content-Disposition gives when the page can read it, else the URL's
 * last segment, decoded, with the content type's extension when it has none or, for common types, another one
 * (`jane.smith` holding JSON is `jane.smith.json`).
 */
export function downloadName(response: ConsoleResponse): string {
  const disposition = response.headers.find(([name]) => name === 'content-disposition')?.[1];
  const given = disposition === undefined ? '' : dispositionFileName(disposition);
  if (given) return given;
  const segment = new URL(response.request.url).pathname.split('/').filter(Boolean).at(-1);
  const last = (segment && safeFileName(decodePercents(segment))) || 'response';
  const extension = typeExtension(response.contentType);
  const current = /\.(\w{1,5})$/.exec(last)?.[1]?.toLowerCase();
  if (current !== undefined && (EXTENSIONS[extension]?.includes(current) ?? true)) return last;
  return `${last}.${extension}`;
}

/** Extensions taken as right for the common types; a name of another type keeps any extension it has. */
const EXTENSIONS: Record<string, readonly string[]> = {
  json: ['json'],
  txt: ['txt', 'text', 'log', 'md', 'csv'],
  xml: ['xml', 'rss', 'atom'],
  html: ['html', 'htm'],
  png: ['png'],
  jpg: ['jpg', 'jpeg'],
  gif: ['gif'],
  webp: ['webp'],
  svg: ['svg'],
  pdf: ['pdf'],
};

function typeExtension(contentType: string): string {
  const subtype = /\/([\w.+-]+)/.exec(contentType)?.[1]?.toLowerCase() ?? 'octet-stream';
  const known: Record<string, string> = { plain: 'txt', 'octet-stream': 'bin', javascript: 'js', jpeg: 'jpg', 'svg+xml': 'svg' };
  return known[subtype] ?? subtype.replace(/.*\+/, '');
}

/** `filename*` (RFC 6266: `UTF-8''r%C3%A9sum%C3%A9.pdf`) before `filename`, made safe; `''` when neither is usable. */
function dispositionFileName(header: string): string {
  const parameters = new Map<string, string>();
  // Sticky: a `;` or `=` inside a quoted value is never taken for the start of a parameter.
  const parameter = /\s*;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/y;
  parameter.lastIndex = Math.max(0, header.indexOf(';'));
  for (let match = parameter.exec(header); match; match = parameter.exec(header)) {
    const name = match[1]!.toLowerCase();
    if (!parameters.has(name)) parameters.set(name, match[2]?.replace(/\\(.)/g, '$1') ?? match[3]!.trim());
  }
  const extended = /^(utf-8|iso-8859-1)'[^']*'(.*)$/i.exec(parameters.get('filename*') ?? '');
  let decoded: string | undefined;
  if (extended?.[1]!.toLowerCase() === 'utf-8') {
    try {
      decoded = decodeURIComponent(extended[2]!);
    } catch {
      // Not UTF-8 after all: `filename` may still do.
    }
  } else if (extended) {
    decoded = extended[2]!.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return (decoded && safeFileName(decoded)) || safeFileName(parameters.get('filename') ?? '');
}

/** Percent-escapes decoded where they spell UTF-8; the others kept as written. */
function decodePercents(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    let decoded = '';
    // A character is one to four escapes: the longest that decodes is taken, else one escape as written.
    for (let at = 0; at < run.length; ) {
      const length = [12, 9, 6, 3].find((n) => at + n <= run.length && decodesAsUtf8(run.slice(at, at + n))) ?? 0;
      decoded += length ? decodeURIComponent(run.slice(at, at + length)) : run.slice(at, at + 3);
      at += length || 3;
    }
    return decoded;
  });
}

function decodesAsUtf8(escapes: string): boolean {
  try {
    decodeURIComponent(escapes);
    return true;
  } catch {
    return false;
  }
}

/** The last path component, without control characters; `''` when nothing usable is left. */
function safeFileName(name: string): string {
  const last = name.split(/[/\\]/).at(-1)!.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return last === '.' || last === '..' ? '' : last;
}
