// A GET or HEAD to a webhook endpoint (someone opening it in a browser, a health check) is no delivery: both handlers
// answer 405 with Allow, before reading anything, rather than 401 "no X-Signature header", which points at the secrets.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createWebhookFetchHandler, createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { listen, post, sign } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: {} });

/** A request without a body; its status, Allow header and body text. */
function call(url: string, method: string): Promise<{ status: number; allow: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, allow: response.headers.allow, text }));
    });
    outgoing.on('error', reject).end();
  });
}

describe('the Node handler given a GET or HEAD', () => {
  const refusals: WebhookRefusal[] = [];
  const events: unknown[] = [];
  const server = createServer(createWebhookHandler({ secret: SECRET, onEvent: (event) => void events.push(event), onRefused: (refusal) => void refusals.push(refusal) }));
  let url = '';
  before(async () => {
    url = `${await listen(server)}/hooks`;
  });
  after(() => server.close());

  it('answers 405 with Allow and says why, telling onRefused, and still takes a signed POST', async () => {
    const get = await call(url, 'GET');
    assert.deepEqual(get, { status: 405, allow: 'POST, PUT, PATCH', text: JSON.stringify({ error: 'method GET carries no webhook: deliveries come as POST, PUT, PATCH requests with a signed JSON body' }) });
    const head = await call(url, 'HEAD');
    assert.deepEqual([head.status, head.allow, head.text], [405, 'POST, PUT, PATCH', '']);
    assert.deepEqual(refusals.map(({ status }) => status), [405, 405]);
    assert.equal((await post(url, eventBody, { 'x-signature': sign(eventBody, SECRET) })).status, 204);
    assert.equal(events.length, 1);
  });
});

describe('the Fetch handler given a GET or HEAD', () => {
  it('answers 405 with Allow and says why, telling onRefused with no body read', async () => {
    const refused: Array<[number, Buffer | undefined]> = [];
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: () => {}, onRefused: ({ status }, { rawBody }) => void refused.push([status, rawBody]) });
    for (const method of ['GET', 'HEAD']) {
      const response = await handler(new Request('https://example.com/hooks', { method }));
      assert.deepEqual([response.status, response.headers.get('allow')], [405, 'POST, PUT, PATCH'], method);
      assert.match(await response.text(), new RegExp(`method ${method} carries no webhook`));
    }
    assert.deepEqual(refused, [[405, undefined], [405, undefined]]);
  });
});
