// What the receiving-side tests do to a handler: listen on loopback, sign a body as the channel does, and POST it.
import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** Starts `server` on a free loopback port; its origin. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** `X-Signature` for `body`, computed here on its own rather than with the package's signer. */
export function sign(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POSTs `body` as JSON with `headers`; the status and the answer's text. */
export async function post(url: string, body: string | Buffer, headers: Record<string, string | readonly string[]> = {}): Promise<{ status: number; text: string }> {
  const response = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.statusCode, text: await response.body.text() };
}
