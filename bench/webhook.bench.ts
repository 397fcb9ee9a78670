// Signed webhook sends per second to a local 204 receiver, against the two anchors of issue 5: a raw keep-alive
// `undici.request` loop and a plain `fetch` loop doing the same (serialise, sign with Web Crypto, POST).
// Goals: at least 90 % of raw undici, at least 4x fetch. The receiver runs in a child process so it does not
// share this process's event loop; every loop stops after a fixed time or a fixed count, whichever comes first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { Notifier, WebhookChannel, newMessage, type WebhookNotification } from '../src/webhook/index.js';
import { formatRate, median, printRatio } from './measure.js';

const CONCURRENCY = 16;
const ROUND_MS = 1_000;
const ROUNDS = 5;
const MAX_SENDS_PER_ROUND = 200_000;
const SECRET = 'bench-secret';

const receiverSource = `
  const server = require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(204).end()); });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  process.on('disconnect', () => process.exit(0));
`;

async function startReceiver() {
  const child = spawn(process.execPath, ['-e', receiverSource], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}/hooks`, stop: () => child.kill() };
}

interface Round {
  /** Sends per second, wall clock. */
  rate: number;
  /** CPU microseconds of this process (all threads, so the crypto thread pool too) per send. */
  cpuPerSend: number;
}

/** Runs `send` from CONCURRENCY workers for ROUND_MS (or MAX_SENDS_PER_ROUND sends). */
async function measureRound(send: () => Promise<unknown>): Promise<Round> {
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + ROUND_MS;
  const worker = async () => {
    while (performance.now() < deadline && count < MAX_SENDS_PER_ROUND) {
      await send();
      count += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { rate: (count * 1_000) / elapsed, cpuPerSend: (cpu.user + cpu.system) / count };
}

const receiver = await startReceiver();
try {
  // Every side does the same work per send: serialise the body with a fresh sent_at, sign it with Web Crypto (key
  // imported once), POST it with Content-Type and X-Signature, read the 204.
  const data = { email: 'a@example.com', plan: 'pro', seats: 3 };
  const notifiable = { type: 'user', id: 42 };
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signedRequest = async () => {
    const body = Buffer.from(JSON.stringify({ event: 'user.created', sent_at: new Date().toISOString(), notifiable, data }));
    const signature = `sha256=${Buffer.from(await crypto.subtle.sign('HMAC', key, body)).toString('hex')}`;
    return { body, headers: { 'Content-Type': 'application/json', 'X-Signature': signature } };
  };

  const notifier = new Notifier({ retry: { attempts: 1 } });
  notifier.registerChannel('webhook', new WebhookChannel({ url: receiver.url, secret: SECRET }));
  const notification: WebhookNotification = { via: () => ['webhook'], toWebhook: () => newMessage().event('user.created').payload(data) };
  const ours = async () => {
    const [result] = await notifier.send(notifiable, notification);
    if (!result!.ok) throw result!.error;
  };

  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const rawUndici = async () => {
    const { body, headers } = await signedRequest();
    const response = await request(receiver.url, { method: 'POST', headers, body, dispatcher: agent });
    await response.body.dump();
    if (response.statusCode !== 204) throw new Error(`status ${response.statusCode}`);
  };

  const plainFetch = async () => {
    const { body, headers } = await signedRequest();
    const response = await fetch(receiver.url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    if (response.status !== 204) throw new Error(`status ${response.status}`);
  };

  // For information only: undici re-sending one pre-signed body, i.e. the transport alone.
  const presigned = await signedRequest();
  const transportOnly = async () => {
    const response = await request(receiver.url, { method: 'POST', headers: presigned.headers, body: presigned.body, dispatcher: agent });
    await response.body.dump();
  };

  const sides = { ours, rawUndici, plainFetch, transportOnly };
  type Side = keyof typeof sides;
  const rounds: Record<Side, Round[]> = { ours: [], rawUndici: [], plainFetch: [], transportOnly: [] };
  for (const send of Object.values(sides)) await measureRound(send); // warm-up: JIT, connections
  // Interleaved rounds in a rotating order, with a collection before each, so that drift in the machine's load and
  // one side's garbage do not land on another side.
  const order = Object.entries(sides) as Array<[Side, () => Promise<unknown>]>;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let i = 0; i < order.length; i += 1) {
      const [name, send] = order[(round + i) % order.length]!;
      globalThis.gc?.();
      rounds[name].push(await measureRound(send));
    }
  }
  const rate = (side: Side) => median(rounds[side].map((r) => r.rate));
  const cpu = (side: Side) => median(rounds[side].map((r) => r.cpuPerSend));
  console.log(`signed webhook sends (Notifier + WebhookChannel): ${formatRate(rate('ours'))}, ${CONCURRENCY} concurrent, median of ${ROUNDS} rounds of ${ROUND_MS} ms`);
  printRatio('vs raw keep-alive undici.request', rate('ours'), rate('rawUndici'), '>= 0.90x');
  printRatio('vs plain fetch', rate('ours'), rate('plainFetch'), '>= 4x');
  printRatio('(info) vs undici re-sending one pre-signed body, no per-send signing', rate('ours'), rate('transportOnly'), 'none');
  // CPU per send hardly moves with other processes' load, unlike sends per second: a cross-check on a busy machine.
  const cpuLine = (side: Side) => `${side} ${cpu(side).toFixed(1)} µs`;
  console.log(`CPU per send (this process, all threads): ${(['ours', 'rawUndici', 'plainFetch', 'transportOnly'] as const).map(cpuLine).join(', ')}`);
  console.log(`  efficiency from CPU: ${(cpu('rawUndici') / cpu('ours')).toFixed(2)}x raw undici, ${(cpu('plainFetch') / cpu('ours')).toFixed(2)}x fetch`);

  await notifier.close();
  await agent.close();
} finally {
  receiver.stop();
}
