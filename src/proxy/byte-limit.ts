// A pass-through stream that fails once more than a set number of bytes has gone through it, so bodies
// stream without being buffered and still cannot grow without bound.
import { Transform, type TransformCallback } from 'node:stream';

export class ByteLimit extends Transform {
  readonly #limit: number;
  readonly #onExceeded: () => Error;
  #count = 0;

  /** `onExceeded` makes the error the stream fails with, e.g. a `request_too_large` refusal. */
  constructor(limit: number, onExceeded: () => Error) {
    super();
    this.#limit = limit;
    this.#onExceeded = onExceeded;
  }

  /** Bytes passed through so far. */
  get count(): number {
    return this.#count;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#count += chunk.length;
    if (this.#count > this.#limit) callback(this.#onExceeded());
    else callback(null, chunk);
  }
}
