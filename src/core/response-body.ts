import { InvalidArgumentError } from './errors.js';

// Reads a response body as a stream: every byte is counted, the first `displayLimit` are kept for the
// screen, and the whole body is kept for download while it fits in `downloadLimit`.

export interface BodyLimits {
  /** Bytes kept for display. @default 1_048_576 (1 MiB) */
  displayLimit?: number;
  /** Bytes kept for download of the whole body; a larger body can be shown and counted, not downloaded. @default 52_428_800 (50 MiB) */
  downloadLimit?: number;
}

export interface ReadBody {
  /** The first bytes of the body, at most `displayLimit`. */
  bytes: Uint8Array;
  /** Every byte received. */
  size: number;
  /** True when `bytes` holds less than the whole body. */
  truncated: boolean;
  /**
   * The whole body for download, or `undefined` when it was larger than `downloadLimit`. Typed
   * `application/octet-stream` whatever the server said: opened in a tab, a body must never run as HTML
   * on the docs page's origin.
   */
  whole: Blob | undefined;
}

/**
 * The body stream failed part-way (the connection closed or reset, the send was cancelled or timed out): `received`
 * bytes had arrived.
 */
export class ResponseBodyError extends Error {
  readonly received: number;
  /**
   * The first bytes that arrived, up to the display limit: a stream that never ends (server-sent events) is read
   * until Cancel or the timeout, and what it sent is still worth showing.
   */
  readonly bytes: Uint8Array;
  /**
   * `bytes` as text, decoded as the response's text would have been (byte order mark, then charset); set by
   * `RequestEngine`, which knows the response's type.
   */
  text: string | undefined;
  /** The response's Content-Type, which says how `bytes` is shown (text, an image, binary data); set with `text`. */
  contentType: string | undefined;

  constructor(received: number, options: { cause: unknown; bytes?: Uint8Array }) {
    super(`The response body stopped after ${received} bytes: ${(options.cause as Error)?.message ?? String(options.cause)}`, options);
    this.name = 'ResponseBodyError';
    this.received = received;
    this.bytes = options.bytes ?? new Uint8Array();
    this.text = undefined;
    this.contentType = undefined;
  }
}

/**
 * The limits with their defaults filled in.
 * @throws InvalidArgumentError for a limit that is not a whole number of bytes, 0 or more.
 */
export function checkBodyLimits(limits: BodyLimits = {}): Required<BodyLimits> {
  const checked = { displayLimit: limits.displayLimit ?? 1 << 20, downloadLimit: limits.downloadLimit ?? 50 << 20 };
  for (const [name, value] of Object.entries(checked)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgumentError(name, value, 'must be a whole number of bytes, 0 or more');
  }
  return checked;
}

/** The body so far, told after each part of it that arrives. */
export interface BodyProgress {
  /** Bytes received so far. */
  received: number;
  /** The first of them, up to the display limit: a copy, made when asked. */
  bytes(): Uint8Array;
  /**
   * The last of them, up to the display limit: a copy, made when asked. Past the display limit, where a stream (server-
   * sent events, a log) is read.
   */
  last(): Uint8Array;
}

/**
 * @param onProgress told after each part of the body (a stream such as server-sent events is worth showing as it comes).
 * @param onPart told as each part comes, before it is kept: the body is still moving.
 * @throws ResponseBodyError when the stream fails before its end.
 */
export async function readBody(
  stream: ReadableStream<Uint8Array<ArrayBuffer>> | null,
  limits: BodyLimits = {},
  onProgress?: (progress: BodyProgress) => void,
  onPart?: () => void,
): Promise<ReadBody> {
  const { displayLimit, downloadLimit } = checkBodyLimits(limits);
  // The start of the body for the screen, and all of it for download while it fits; each on its own cap.
  const shown: Uint8Array[] = [];
  let shownBytes = 0;
  let kept: Uint8Array<ArrayBuffer>[] | undefined = [];
  // The end of the body so far, for progress: the parts that hold its last `displayLimit` bytes.
  let recent: Uint8Array[] = [];
  let recentBytes = 0;
  let recentStart = 0;
  let size = 0;
  const reader = stream?.getReader();
  while (reader) {
    let chunk: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new ResponseBodyError(size, { cause: error, bytes: join(shown, displayLimit) });
    }
    const { done, value } = chunk;
    if (done) break;
    onPart?.();
    size += value.byteLength;
    if (shownBytes < displayLimit) {
      const part = value.subarray(0, displayLimit - shownBytes);
      shown.push(part);
      shownBytes += part.byteLength;
    }
    if (kept && size > downloadLimit) kept = undefined;
    kept?.push(value);
    if (onProgress) {
      recent.push(value);
      recentBytes += value.byteLength;
      // Bounded by the parts there are: a display limit of 0 keeps none of them.
      while (recentStart < recent.length && recentBytes - recent[recentStart]!.byteLength >= displayLimit) recentBytes -= recent[recentStart++]!.byteLength;
      // Dropped in bulk: a stream of small events brings thousands of parts.
      if (recentStart > 1024 && recentStart * 2 > recent.length) [recent, recentStart] = [recent.slice(recentStart), 0];
      // The body as it is now, when read later: the arrays grow on (a dropped `recent` is replaced, not changed).
      const [parts, from, to, shownParts] = [recent, recentStart, recent.length, shown.length];
      onProgress({ received: size, bytes: () => join(shown.slice(0, shownParts), displayLimit), last: () => lastOf(parts.slice(from, to), displayLimit) });
    }
  }
  const bytes = join(shown, displayLimit);
  const whole = kept && new Blob(kept, { type: 'application/octet-stream' });
  return { bytes, size, truncated: bytes.byteLength < size, whole };
}

/** The first `limit` bytes of `chunks`, as one array. */
function join(chunks: readonly Uint8Array[], limit: number): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(Math.min(length, limit));
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= out.length) break;
    const part = chunk.subarray(0, out.length - offset);
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** The last `limit` bytes of `chunks`, as one array. */
function lastOf(chunks: readonly Uint8Array[], limit: number): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const whole = join(chunks, length);
  return whole.slice(Math.max(0, whole.byteLength - limit));
}
