// With maxAge, a sent_at written with a single space between the date and the time (2025-01-02 03:04:05.678Z), which
// RFC 3339 §5.6's note allows and Python's str(datetime) writes, is read as the same instant as with a T; anything else
// in that place, or a space anywhere else, is still refused as no timestamp. Both receivers, signed as a sender would.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createWebhookFetchHandler, createWebhookHandler } from '../../src/webhook/index.js';
import { listen, post, sign } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const MAX_AGE = 60_000;
const NOT_A_TIMESTAMP = /^event sent_at ".*" is not an ISO 8601 timestamp/;

const bodyDated = (sentAt: string) => JSON.stringify({ event: 'user.created', sent_at: sentAt, notifiable: { type: 'user', id: 42 }, data: {} });
/** Now as toISOString writes it, with `separator` for its T. */
const nowWith = (separator: string, date = new Date()) => date.toISOString().replace('T', separator);
/** Now as Python's str() writes an aware UTC datetime: microseconds and +00:00. */
const pythonNow = () => nowWith(' ').replace(/Z$/, '000+00:00');

describe('a receiver with maxAge, given a sent_at with a space for its T', () => {
  const received: string[] = [];
  const onEvent = (event: { sent_at: string }) => void received.push(event.sent_at);
  const fetchHandler = createWebhookFetchHandler({ secret: SECRET, maxAge: MAX_AGE, onEvent });
  const server = createServer(createWebhookHandler({ secret: SECRET, maxAge: MAX_AGE, onEvent }));
  let url = '';
  before(async () => {
    url = await listen(server);
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  /** What each receiver answers a delivery dated `sentAt`: [status, error] from the Node handler, then the Fetch one. */
  async function answers(sentAt: string): Promise<Array<[number, string | undefined]>> {
    const body = bodyDated(sentAt);
    const headers = { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) };
    const node = await post(`${url}/hooks`, body, headers);
    const viaFetch = await fetchHandler(new Request('http://127.0.0.1/hooks', { method: 'POST', body, headers }));
    const fetchText = await viaFetch.text();
    return [
      [node.status, node.text === '' ? undefined : (JSON.parse(node.text) as { error: string }).error],
      [viaFetch.status, fetchText === '' ? undefined : (JSON.parse(fetchText) as { error: string }).error],
    ];
  }

  it('accepts it, with Z or with an offset, as Python writes it too', async () => {
    received.length = 0;
    const sentAts = [nowWith(' '), nowWith(' ').replace('Z', '+00:00'), pythonNow()];
    for (const sentAt of sentAts) assert.deepEqual(await answers(sentAt), [[204, undefined], [204, undefined]], sentAt);
    assert.deepEqual(received, sentAts.flatMap((sentAt) => [sentAt, sentAt]));
  });

  it('reads it as the instant it names: one older than maxAge is refused as old, not as no timestamp', async () => {
    const old = nowWith(' ', new Date(Date.now() - 10 * MAX_AGE));
    const reason = `event sent_at ${old} is older than maxAge (${MAX_AGE} ms)`;
    assert.deepEqual(await answers(old), [[400, reason], [400, reason]]);
  });

  it('still refuses as no timestamp two spaces, another blank for the T, or a space anywhere else', async () => {
    received.length = 0;
    const now = nowWith('T');
    const refused = [
      nowWith('  '),
      nowWith('\t'),
      nowWith('\u00a0'),
      nowWith('\n'),
      nowWith('_'),
      nowWith(''),
      ` ${nowWith(' ')}`,
      `${nowWith(' ')} `,
      now.replace('Z', ' Z'),
      now.replace(/^(\d{4}-\d{2})-/, '$1 '),
      now.replace(/:(\d{2}\.)/, ' $1'),
      nowWith(' ').replace(/^(\d{4}-\d{2})-/, '$1 '),
    ];
    for (const sentAt of refused) {
      for (const [status, error] of await answers(sentAt)) {
        assert.equal(status, 400, JSON.stringify(sentAt));
        assert.match(error ?? '', NOT_A_TIMESTAMP, JSON.stringify(sentAt));
      }
    }
    assert.deepEqual(received, []);
  });
});
