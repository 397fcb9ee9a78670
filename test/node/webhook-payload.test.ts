// The body's `data`: always a JSON object, and never silently different from what the caller passed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../src/core/errors.js';
import { Notifier, WebhookChannel, createWebhookHandler, newMessage, type WebhookBody } from '../../src/webhook/index.js';
import { startTestServer, type TestServer } from './webhook-test-server.js';

class Money {
  constructor(readonly cents: number) {}
  toJSON() {
    return `${this.cents / 100} EUR`;
  }
}
const cycle: Record<string, unknown> = {};
cycle.self = cycle;

describe('webhook payload: refused, with what to pass instead', () => {
  const channel = new WebhookChannel({ url: 'http://127.0.0.1:9/in' }); // never sends: prepare() only
  const refused: Array<[string, unknown, RegExp]> = [
    ['a Date', new Date(0), /^Invalid message\.payload: must serialise to a JSON object.*its toJSON\(\) gives a string \(a Date\); wrap it in an object/],
    ['an object whose toJSON() gives a string', new Money(500), /its toJSON\(\) gives a string \(a Money\)/],
    ['an object whose toJSON() gives null', { toJSON: () => null }, /its toJSON\(\) gives null/],
    ['an object whose toJSON() gives an array', { toJSON: () => [1, 2] }, /its toJSON\(\) gives an array/],
    ['an array', [1, 2], /must serialise to a JSON object.*but it is an array/],
    ['a string', 'hello', /but it is a string/],
    ['null', null, /but it is null/],
    ['a Map, which JSON writes as {}', new Map([['email', 'a@example.com']]), /^Invalid message\.payload: is a Map, which JSON writes as \{\}; pass Object\.fromEntries\(map\)/],
    ['a Set', new Set([1]), /^Invalid message\.payload: is a Set.*pass \[\.\.\.set\]/],
    ['a nested Map', { user: { tags: new Map([['a', 1]]) } }, /^Invalid message\.payload\.user\.tags: is a Map/],
    ['a Set in an array', { lists: [[], new Set([1])] }, /^Invalid message\.payload\.lists\[1\]: is a Set/],
    ['NaN', { ratio: Number.NaN }, /^Invalid message\.payload\.ratio: is not a finite number, which JSON writes as null; send null or a string/],
    ['Infinity under an odd key', { 'max value': Infinity }, /^Invalid message\.payload\["max value"\]: is not a finite number/],
    ['-Infinity in an array', { values: [1, -Infinity] }, /message\.payload\.values\[1\]: is not a finite number/],
    ['a BigInt', { big: 10n }, /message\.payload\.big: is a BigInt.*String\(value\)/],
    ['a function', { callback: () => 1 }, /message\.payload\.callback: is a function, which JSON leaves out/],
    ['a symbol', { tag: Symbol('x') }, /message\.payload\.tag: is a symbol/],
    ['undefined in an array', { items: [1, undefined] }, /message\.payload\.items\[1\]: is undefined inside an array, which JSON writes as null; use null/],
    ['a RegExp', { pattern: /a+/ }, /message\.payload\.pattern: is a RegExp, which JSON writes as \{\}/],
    ['an Error', { problem: new Error('boom') }, /message\.payload\.problem: is an Error.*convert it to a string/],
    ['a cycle', cycle, /message\.payload: must be JSON-serialisable \(Converting circular structure/],
    ['a Uint8Array', { bytes: new Uint8Array([1, 2]) }, /message\.payload\.bytes: is a Uint8Array, which JSON writes as an object keyed "0", "1"….*base64.*Array\.from\(value\)/],
    ['a Float64Array', { values: new Float64Array([1]) }, /message\.payload\.values: is a Float64Array/],
    ['an ArrayBuffer', { buffer: new Uint8Array([1]).buffer }, /message\.payload\.buffer: is an ArrayBuffer, which JSON writes as \{\}.*base64/],
    ['a DataView', { view: new DataView(new ArrayBuffer(2)) }, /message\.payload\.view: is a DataView, which JSON writes as \{\}/],
    ['a WeakRef', { ref: new WeakRef({}) }, /message\.payload\.ref: is a WeakRef, which JSON writes as \{\}/],
    ['a boxed NaN', { ratio: new Number(Number.NaN) }, /message\.payload\.ratio: is a boxed non-finite number, which JSON writes as null/],
    ['an invalid Date', { at: new Date(Number.NaN) }, /message\.payload\.at: is an invalid Date, which JSON writes as null/],
  ];
  for (const [what, payload, message] of refused) {
    it(`refuses ${what}`, async () => {
      await assert.rejects(channel.prepare({ type: 'user', id: 1 }, newMessage().event('e').payload(payload as never)), (error: unknown) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

describe('webhook prepare() with a bad sentAt', () => {
  it('throws ConfigError for an invalid Date or a year past 9999, not a RangeError', async () => {
    const channel = new WebhookChannel({ url: 'http://127.0.0.1:9/in' });
    for (const sentAt of [new Date(Number.NaN), new Date(Date.UTC(10_000, 0, 1))]) {
      await assert.rejects(channel.prepare({ type: 'user', id: 1 }, newMessage().event('e'), sentAt), (error: unknown) => error instanceof ConfigError && /^Invalid sentAt: must be a valid Date/.test(error.message));
    }
  });

  it('sends a Buffer as its toJSON() gives it, { type: "Buffer", data: [bytes] }, which JSON keeps', async () => {
    const delivery = await new WebhookChannel({ url: 'http://127.0.0.1:9/in' }).prepare({ type: 'user', id: 1 }, newMessage().event('e').payload({ b: Buffer.from('hi') }));
    assert.deepEqual(JSON.parse(delivery.body.toString()).data, { b: { type: 'Buffer', data: [104, 105] } });
  });
});

describe('webhook payload: sent', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function sentData(payload: unknown): Promise<unknown> {
    server.requests.length = 0;
    const notifier = new Notifier({ retry: { attempts: 1 } });
    notifier.registerChannel('webhook', new WebhookChannel({ url: server.url }));
    const [result] = await notifier.send({ type: 'user', id: 1 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('e').payload(payload as never) });
    await notifier.close();
    assert.equal(result!.ok, true, result!.error?.message);
    return JSON.parse(server.requests[0]!.body.toString('utf8')).data;
  }

  it('sends nested Dates as ISO strings and toJSON() results that are objects, as JSON.stringify does', async () => {
    const payload = { at: new Date(0), price: new Money(1999), nested: { toJSON: () => ({ kept: true }) } };
    assert.deepEqual(await sentData(payload), { at: '1970-01-01T00:00:00.000Z', price: '19.99 EUR', nested: { kept: true } });
    assert.deepEqual(await sentData({ toJSON: () => ({ from: 'toJSON' }) }), { from: 'toJSON' });
  });

  it('leaves out undefined properties, which mean "absent"', async () => {
    assert.deepEqual(await sentData({ a: 1, b: undefined, c: { d: undefined } }), { a: 1, c: {} });
  });

  it('sends class instances, null-prototype objects, null, and the body keys in order', async () => {
    class User {
      name = 'ada';
      tags = ['x'];
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: 'v' });
    assert.deepEqual(await sentData({ user: new User(), bare, nothing: null, zero: -0 }), { user: { name: 'ada', tags: ['x'] }, bare: { k: 'v' }, nothing: null, zero: 0 });
    const text = server.requests[0]!.body.toString('utf8');
    assert.match(text, /^\{"event":"e","sent_at":"[^"]+","notifiable":\{"type":"user","id":1\},"data":\{/);
    assert.equal(text, JSON.stringify(JSON.parse(text)), 'compact JSON');
  });
});

describe('webhook payload: end to end with the receiver helper', () => {
  const received: WebhookBody[] = [];
  const statuses: number[] = [];
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer(createWebhookHandler({ secret: 's', onEvent: (event) => void received.push(event) }));
    server.on('request', (_request, response) => response.on('finish', () => statuses.push(response.statusCode)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a payload that is not an object is refused before sending, instead of being answered 400 on every retry', async () => {
    const notifier = new Notifier({ retry: { attempts: 3, minDelay: 1, maxDelay: 1 } });
    notifier.registerChannel('webhook', new WebhookChannel({ url, secret: 's' }));
    const send = (payload: unknown) => notifier.send({ type: 'user', id: 1 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('e').payload(payload as never) });
    const [date] = await send(new Date(0));
    const [map] = await send(new Map([['a', 1]]));
    const [fine] = await send({ at: new Date(0), list: [...new Set([1, 2])], map: Object.fromEntries(new Map([['a', 1]])) });
    await notifier.close();
    assert.deepEqual([date!.ok, date!.attempts, map!.ok, map!.attempts], [false, 0, false, 0]);
    assert.match(date!.error!.message, /could not be built: Invalid message\.payload: must serialise to a JSON object/);
    assert.deepEqual(fine, { channel: 'webhook', ok: true, status: 204, attempts: 1 });
    assert.deepEqual(statuses, [204], 'only the good payload reached the receiver');
    assert.deepEqual(received.map((event) => event.data), [{ at: '1970-01-01T00:00:00.000Z', list: [1, 2], map: { a: 1 } }]);
  });
});
