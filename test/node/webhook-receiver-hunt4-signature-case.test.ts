// X-Signature with its hex digits in uppercase, as some senders (.NET's Convert.ToHexString) write them: hex is
// case-insensitive, so the same digest is accepted by verifySignature and by both handlers, in constant time.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createWebhookFetchHandler, createWebhookHandler, verifySignature } from '../../src/webhook/index.js';
import { listen, post, sign as signWith } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: {} });
const lower = signWith(eventBody, SECRET);
const upperHex = `sha256=${lower.slice(7).toUpperCase()}`;
// Every other digit uppercased.
const mixedHex = `sha256=${[...lower.slice(7)].map((digit, index) => (index % 2 ? digit.toUpperCase() : digit)).join('')}`;

describe('verifySignature with uppercase or mixed-case hex', () => {
  it('accepts the right digest whatever the case of its hex digits', async () => {
    assert.notEqual(upperHex, lower);
    assert.equal(await verifySignature(eventBody, upperHex, SECRET), true);
    assert.equal(await verifySignature(eventBody, mixedHex, SECRET), true);
    assert.equal(await verifySignature(Buffer.from(eventBody), [upperHex], [SECRET, 'old-secret']), true);
  });

  it('still refuses a wrong digest in uppercase, and a prefix or length that is not the format', async () => {
    assert.equal(await verifySignature(eventBody, `sha256=${signWith(eventBody, 'other').slice(7).toUpperCase()}`, SECRET), false);
    assert.equal(await verifySignature(eventBody, `${upperHex}0`, SECRET), false);
    assert.equal(await verifySignature(eventBody, `sha256=${'G'.repeat(64)}`, SECRET), false);
  });
});

describe('the handlers with uppercase hex in X-Signature', () => {
  const received: string[] = [];
  const server = createServer(createWebhookHandler({ secret: SECRET, onEvent: (event) => void received.push(event.event) }));
  const fetchHandler = createWebhookFetchHandler({ secret: SECRET, onEvent: (event) => void received.push(event.event) });
  let url: string;
  before(async () => {
    url = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('createWebhookHandler answers 204 and hands the event on', async () => {
    received.length = 0;
    assert.deepEqual(await post(url, eventBody, { 'x-signature': upperHex }), { status: 204, text: '' });
    const wrong = await post(url, eventBody, { 'x-signature': `sha256=${signWith(eventBody, 'other').slice(7).toUpperCase()}` });
    assert.equal(wrong.status, 401);
    assert.match(JSON.parse(wrong.text).error, /does not match the body/);
    assert.deepEqual(received, ['user.created']);
  });

  it('createWebhookFetchHandler answers 204 and hands the event on', async () => {
    received.length = 0;
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: eventBody, headers: { 'x-signature': mixedHex } });
    assert.equal((await fetchHandler(request)).status, 204);
    assert.deepEqual(received, ['user.created']);
  });
});
