// Reading a request body with a size cap, and parsing it as JSON with an answer-ready error.
import type { IncomingMessage } from 'node:http';

/** The body could not be used; `status` is what to answer (400 or 413). */
export class RequestBodyError extends Error {
  readonly code = 'ERR_DEMO_REQUEST_BODY';

  constructor(readonly status: 400 | 413, message: string) {
    super(message);
    this.name = 'RequestBodyError';
  }
}

export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new RequestBodyError(413, `The body is larger than ${limit} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Reads and parses a JSON body; an empty body is `undefined`. */
export async function readJson(request: IncomingMessage, limit: number): Promise<unknown> {
  const body = await readBody(request, limit);
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new RequestBodyError(400, `The body is not valid JSON: ${(error as Error).message}`);
  }
}
