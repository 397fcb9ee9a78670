// Writing the demo servers' answers: JSON, and the plain errors every route shares.
import type { ServerResponse } from 'node:http';

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value, null, 2) + '\n');
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length, ...headers });
  response.end(body);
}

/** `{ "error": { "code", "message" } }`: the demo's own endpoints (the sample API answers problem details). */
export function sendError(response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(response, status, { error: { code, message } }, headers);
}

export function sendBytes(response: ServerResponse, status: number, type: string, body: Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': body.length, ...headers });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
