import { MIN_REDACTED_VALUE_LENGTH } from '../../core/history.js';
import type { ConsoleResponse } from '../../core/request-engine.js';
import { maskedValue } from '../env-picker/secret-masking.js';
import { MASK } from '../url-credential-masking.js';
import { prettyJson } from './pretty-json.js';
import { prettyXml } from './pretty-xml.js';

/**
 * How a response body is shown: pretty JSON, plain text, an image, or a note for other binary data. `notes` say why
 * text may not read as the server meant it.
 */
export type BodyPresentation =
  | { kind: 'empty' }
  | { kind: 'json'; text: string; highlight: boolean; notes: string[] }
  | { kind: 'text'; text: string; notes: string[] }
  | { kind: 'image' }
  | { kind: 'binary' };

/** JSON and XML are laid out up to this size; past it, parsing and re-printing would stall the page. */
const PRETTY_LAYOUT_LIMIT = 1 << 20;
/**
 * The layout is shown up to 4 times the body (any layout up to 1 MB); past that it is mostly indentation, slow to
 * render (1.9 MB of it: a 340 ms task in Chromium), and the body is shown as sent instead. Levels past 64 are already
 * on one line, but a long array that deep still gains 130 characters per item.
 */
const PRETTY_GROWTH_LIMIT = 4;
const PRETTY_TEXT_FLOOR = 1 << 20;
const prettyLengthLimit = (text: string) => Math.max(PRETTY_GROWTH_LIMIT * text.length, PRETTY_TEXT_FLOOR);
/** How a body of `contentType` starting with `start` is shown: previewed as an image, described as binary data, or as text. */
export function bodyKindOf(contentType: string, start: Uint8Array): 'image' | 'binary' | 'text' {
  const type = contentType.toLowerCase();
  // SVG is a document that can hold script: it is shown as text, never rendered.
  if (type.startsWith('image/') && !type.startsWith('image/svg')) return 'image';
  return !TEXTUAL_TYPE.test(type) && looksBinary(start) ? 'binary' : 'text';
}

/** Highlighting costs far more than printing: only small texts get colours, measured as laid out, as highlighted. */
const HIGHLIGHT_LIMIT = 100 * 1024;

const TEXTUAL_TYPE = /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|csv|graphql)\b/i;

export function presentBody(response: ConsoleResponse): BodyPresentation {
  if (response.size === 0) return { kind: 'empty' };
  const kind = bodyKindOf(response.contentType, response.body);
  if (kind !== 'text') return { kind };
  const type = response.contentType.toLowerCase();
  const notes = notUtf8(response) ? [NOT_UTF8] : [];
  // JSON and `+json` types; not `json-seq` or `jsonl`, which hold several documents.
  const essence = type.split(';')[0]!.trim();
  const json = /[/+]json$/.test(essence);
  if (json && !response.truncated && response.size <= PRETTY_LAYOUT_LIMIT) {
    try {
      JSON.parse(response.text); // only to know it is JSON: the values are printed as sent
    } catch (error) {
      // Shown as sent, and said: unformatted, a stray byte (a NUL after the document) would pass for valid JSON.
      return { kind: 'text', text: response.text, notes: [`Not valid JSON, though sent as ${essence}: ${(error as Error).message}.`, ...notes] };
    }
  } else if (!json || !response.truncated || !/^\s*[[{]/.test(response.text)) {
    // XML (`+xml` types too) laid out as JSON is, when whole and well-formed; as sent otherwise.
    const xml = /[/+]xml$/.test(essence) && !response.truncated && response.size <= PRETTY_LAYOUT_LIMIT && prettyXml(response.text, prettyLengthLimit(response.text));
    return { kind: 'text', text: xml || response.text, notes };
  }
  // Whole and valid, or the start of a document shown in part, which no parser takes: laid out to where it is cut.
  const text = prettyJson(response.text, prettyLengthLimit(response.text));
  return text === undefined ? { kind: 'text', text: response.text, notes } : { kind: 'json', text, highlight: text.length <= HIGHLIGHT_LIMIT, notes };
}

const NOT_UTF8 = 'Bytes shown as � are not valid UTF-8: the server may send another encoding without naming it in the Content-Type charset.';

/**
 * Whether the text is the body decoded as UTF-8 with bytes that are not UTF-8 replaced by U+FFFD: shown without a
 * word, the replacement would pass for a character the server sent.
 */
function notUtf8({ body, text, truncated }: ConsoleResponse): boolean {
  if (!text.includes('\ufffd')) return false;
  // A cut body may end inside a character, which is no error: both decoders leave it out.
  const options = { stream: truncated };
  if (new TextDecoder().decode(body, options) !== text) return false; // decoded from another charset
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body, options);
    return false;
  } catch {
    return true;
  }
}

/**
 * A header value or status text as fetch gives it, one character per byte, read as UTF-8 when it is: servers that
 * send anything outside ASCII there send UTF-8, which read byte by byte would show as `CrÃ©Ã©`.
 */
export function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value, (character) => character.charCodeAt(0)));
  } catch {
    return value; // Latin-1, or bytes in no encoding: as fetch gave them
  }
}

/** A NUL byte, or many control characters, in the first kilobyte: not something to show as text. */
export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 1024);
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) controls += 1;
  }
  return controls > sample.length / 10;
}

/** `1.2 KB`, `3.4 MB`, `256 KB` (no `.0`): sizes for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  // The unit is chosen after rounding: 1,048,575 bytes is 1 MB, not 1024 KB.
  while (unit < 2 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${['KB', 'MB', 'GB'][unit]}`;
}

/** A part's size and its whole's, in exact bytes when rounded they would read the same (`256 KB of 256 KB`). */
export function formatBytesOf(part: number, whole: number): [string, string] {
  const [rounded, roundedWhole] = [formatBytes(part), formatBytes(whole)];
  if (rounded !== roundedWhole || part === whole) return [rounded, roundedWhole];
  return [`${part.toLocaleString('en')} B`, `${whole.toLocaleString('en')} B`];
}

/**
 * A file name for downloading the body: the one Content-Disposition gives when the page can read it, else the last
 * segment of the URL it came from (after redirects, as browsers name downloads), decoded, with the content type's
 * extension when it has none or, for common types, another one (`jane.smith` holding JSON is `jane.smith.json`).
 * A path holding one of `secrets` (the values the environment panel masks), or a last segment in a well-known key
 * format, gives `response`, and such a Content-Disposition name is not taken: a download's name is in the page's DOM
 * and in the browser's download list, which may be synced.
 */
export function downloadName(response: Pick<ConsoleResponse, 'headers' | 'contentType' | 'redirectedTo'> & { request: { url: string } }, secrets: readonly string[] = []): string {
  // Values too short for history to redact (`pin: "1"`) would match most names.
  const holdsSecret = (text: string, name = text) => secrets.some((value) => value.length >= MIN_REDACTED_VALUE_LENGTH && text.includes(value)) || maskedValue('', name) === MASK;
  const disposition = response.headers.find(([name]) => name === 'content-disposition')?.[1];
  const given = disposition === undefined ? '' : dispositionFileName(headerText(disposition));
  // A name the server gave holding the reader's key is named after the URL instead.
  if (given && !holdsSecret(given)) return given;
  // A proxy other than try-it-proxy may pass on any text as the URL it was redirected to.
  const from = response.redirectedTo !== undefined && URL.canParse(response.redirectedTo) ? response.redirectedTo : response.request.url;
  const path = decodePercents(new URL(from).pathname);
  const segment = path.split('/').filter(Boolean).at(-1) ?? '';
  // The whole path: a secret holding "/" spans segments.
  const last = (!holdsSecret(path, segment) && safeFileName(segment)) || 'response';
  const extension = typeExtension(response.contentType);
  const current = /\.(\w{1,6})$/.exec(last)?.[1]?.toLowerCase();
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
  const known: Record<string, string> = { plain: 'txt', 'octet-stream': 'bin', javascript: 'js', jpeg: 'jpg', 'svg+xml': 'svg', 'x-ndjson': 'ndjson' };
  const extension = known[subtype] ?? subtype.replace(/.*\+/, '');
  // A subtype that is no extension (`event-stream`, `vnd.…`) would make a name no program opens.
  return /^[a-z\d]{1,6}$/.test(extension) ? extension : TEXTUAL_TYPE.test(contentType) ? 'txt' : 'bin';
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
