// A receiver that refuses a delivery and repeats the request back in its answer, with the channel's credentials
// written the way its framework escapes them: JSON with escaped slashes (PHP's json_encode, Laravel's default), HTML
// entities, percent-encoding. The quoted excerpt hides them in those spellings too, as it does written plainly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebhookChannel, newMessage, type AttemptOutcome } from '../../src/webhook/index.js';
import { GUARD, invoice } from './webhook-support/notifier-harness.js';
import { failOnUnhandledRejections, serversClosedAfterEachTest, settlesWithin } from './webhook-test-server.js';

failOnUnhandledRejections();
const startServer = serversClosedAfterEachTest();

// Base64 tokens hold "/" and "+", which these escapings rewrite.
const TOKEN = 'tok/en+abc/def==XYZ';
const PATH_SECRET = 's3cr3t/path+key';

/** One attempt to a receiver answering 401 with `body` as `contentType`; the failure's message. */
async function refusalMessage(contentType: string, body: (path: string) => string): Promise<string> {
  const server = await startServer((response, received) => response.writeHead(401, { 'content-type': contentType }).end(body(received.url)));
  const channel = new WebhookChannel({ url: `${server.url}/hooks/${encodeURIComponent(PATH_SECRET)}`, headers: { Authorization: `Bearer ${TOKEN}` } });
  try {
    const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}));
    const outcome: AttemptOutcome = await settlesWithin(channel.attempt(delivery), GUARD, 'the attempt');
    assert.equal(outcome.ok, false);
    return outcome.ok ? '' : outcome.error.message;
  } finally {
    await channel.close();
  }
}

const leaks = (message: string) => ['abc', 'XYZ', 's3cr3t', 'path'].filter((part) => message.includes(part));

describe('a refusal excerpt quoting the request back with its credentials escaped', () => {
  it('hides a token written in JSON with escaped slashes', async () => {
    const message = await refusalMessage('application/json', () => JSON.stringify({ received: { authorization: `Bearer ${TOKEN}` } }).replaceAll('/', '\\/'));
    assert.match(message, /answered 401, saying/);
    assert.deepEqual(leaks(message), [], message);
  });

  it('hides a token written with HTML entities', async () => {
    const message = await refusalMessage('text/html', () => `<p>Refused token ${TOKEN.replaceAll('/', '&#x2F;').replaceAll('+', '&#43;')}</p>`);
    assert.match(message, /saying "Refused token …"/);
    assert.deepEqual(leaks(message), [], message);
  });

  it('hides a token and a URL path written percent-encoded', async () => {
    const message = await refusalMessage('text/plain', (path) => `no route ${path} for token ${encodeURIComponent(TOKEN)}`);
    assert.match(message, /saying "no route .* for token …"/);
    assert.deepEqual(leaks(message), [], message);
    // Decoded, as a router that matched the path would show it.
    const decoded = await refusalMessage('text/plain', (path) => `no route ${decodeURIComponent(path)}`);
    assert.match(decoded, /saying "no route \/hooks\/…"/);
    assert.deepEqual(leaks(decoded), [], decoded);
  });
});
