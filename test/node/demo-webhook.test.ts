// Area B in the demo: /demo/notify makes the docs server send a signed webhook through Notifier + WebhookChannel
// to the local receiver, which verifies it with createWebhookHandler. Deliveries are read back from
// /demo/deliveries with a bounded poll. Uses the demo's own retry policy (300 ms first retry).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { get, postJson, waitForDelivery } from './demo-support/demo-client.js';

let demo: RunningDemo;
let notifyUrl: string;

before(async () => {
  demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
  notifyUrl = new URL('/demo/notify', demo.urls.docs).href;
});
after(() => demo.close());

async function notify(body: Record<string, unknown>): Promise<string> {
  const response = await postJson(notifyUrl, body);
  assert.equal(response.status, 202);
  const record = (await response.json()) as { id: string; sender: { state: string } };
  assert.equal(record.sender.state, 'sending');
  return record.id;
}

const ended = (delivery: { sender: { state: string } }) => delivery.sender.state !== 'sending';

describe('demo webhook flow', () => {
  it('delivers a notification that the receiver verifies, on the first attempt', async () => {
    const id = await notify({ event: 'pet.adopted', petId: 3 });
    const delivery = await waitForDelivery(demo.urls.docs, ended, id);
    assert.equal(delivery.event, 'pet.adopted');
    assert.deepEqual(delivery.notifiable, { type: 'pet', id: 3 });
    assert.deepEqual(delivery.sender, { state: 'delivered', attempts: 1, status: 204 });
    assert.equal(delivery.verified, true);
    assert.equal(delivery.attemptsSeen, 1);
    assert.deepEqual(delivery.received.map((a) => [a.status, a.verified]), [[204, true]]);
    assert.ok(Date.parse(delivery.received[0]!.at) >= Date.parse(delivery.requestedAt));
  });

  it('retries when the receiver fails the first attempt, and the retry is verified', async () => {
    const id = await notify({ event: 'pet.vaccinated', failFirst: true });
    const delivery = await waitForDelivery(demo.urls.docs, ended, id);
    assert.equal(delivery.sender.state, 'delivered');
    assert.equal(delivery.sender.attempts, 2);
    assert.equal(delivery.attemptsSeen, 2);
    assert.deepEqual(delivery.received.map((a) => [a.status, a.verified]), [[500, true], [204, true]]);
    // The page shows why the first attempt got a 500: on purpose, not a broken demo.
    assert.match(delivery.received[0]!.refusal ?? '', /failed on purpose: the demo receiver fails the first attempt/);
    assert.equal(delivery.received[1]!.refusal, undefined);
  });

  it('shows a delivery signed with the wrong secret as rejected, without retrying it', async () => {
    const id = await notify({ event: 'order.placed', wrongSecret: true });
    const delivery = await waitForDelivery(demo.urls.docs, ended, id);
    assert.equal(delivery.sender.state, 'failed');
    assert.equal(delivery.sender.attempts, 1);
    assert.match(delivery.sender.error ?? '', /401/);
    assert.deepEqual(delivery.notifiable, { type: 'order', id: 1 });
    assert.equal(delivery.verified, false);
    assert.deepEqual(delivery.received.map((a) => [a.status, a.verified]), [[401, false]]);
    // The receiver's onRefused reason, shown under the answer.
    assert.match(delivery.received[0]!.refusal ?? '', /X-Signature does not match the body/);
  });

  it('sends pet.created when a pet is added through the sample API', async () => {
    const created = await postJson(`${demo.urls.api}/pets`, { name: 'Mochi', tag: 'cat' });
    const pet = (await created.json()) as { id: number };
    const delivery = await waitForDelivery(demo.urls.docs, (d) => d.event === 'pet.created' && d.notifiable.id === pet.id && ended(d));
    assert.equal(delivery.sender.state, 'delivered');
    assert.equal(delivery.verified, true);
  });

  it('lists deliveries newest first', async () => {
    const first = await notify({ event: 'pet.adopted' });
    const second = await notify({ event: 'pet.adopted' });
    await waitForDelivery(demo.urls.docs, ended, second);
    const { deliveries } = (await (await get(new URL('/demo/deliveries', demo.urls.docs).href)).json()) as { deliveries: Array<{ id: string }> };
    const ids = deliveries.map((d) => d.id);
    assert.ok(ids.indexOf(second) < ids.indexOf(first));
  });

  it('has a receiver that refuses an unsigned request', async () => {
    const response = await postJson(demo.urls.receiver, { event: 'pet.adopted', sent_at: new Date().toISOString(), notifiable: { type: 'pet', id: 1 }, data: {} });
    assert.equal(response.status, 401);
    await response.arrayBuffer();
  });
});

describe('demo shutdown', () => {
  it('closes every server, with a delivery still retrying', async () => {
    const other = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0, retry: { attempts: 5, minDelay: 5_000 } });
    const response = await postJson(new URL('/demo/notify', other.urls.docs).href, { failFirst: true });
    const { id } = (await response.json()) as { id: string };
    await waitForDelivery(other.urls.docs, (d) => d.attemptsSeen === 1, id);
    const started = performance.now();
    await other.close();
    assert.ok(performance.now() - started < 5_000, 'close does not wait for the 5 s retry');
    for (const url of [other.urls.docs, other.urls.api, other.urls.proxy, other.urls.receiver]) {
      await assert.rejects(get(url), (error: Error) => /fetch failed/.test(error.message), url);
    }
  });
});
