// CORS proxy requests per second: ours against `cors-anywhere` in front of the same local API, with the
// direct route (no proxy) as context. Goal: at least 2x cors-anywhere. The API and each proxy run in child
// processes (this same file, in another role) so they do not share the load generator's event loop;
// autocannon runs for a fixed time per route, routes interleaved over two rounds (best round kept, since
// noise on a shared machine only ever slows a route down). Every route must answer 2xx, or its number is
// meaningless.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startProxy } from '../src/proxy/index.js';

const require = createRequire(import.meta.url);
const DURATION_S = 3;
const WARMUP_S = 1;
const ROUNDS = 2;
const CONNECTIONS = 32;
const ORIGIN = 'http://localhost:8000';

type Role = 'api' | 'ours' | 'cors-anywhere';

/** The slice of autocannon's result this bench reads (autocannon ships no types). */
interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

/** Child-process side: start one server on an ephemeral loopback port and print the port. */
async function serve(role: Role): Promise<void> {
  const announce = (port: number): void => void process.stdout.write(`${port}\n`);
  process.on('disconnect', () => process.exit(0));
  if (role === 'api') {
    const body = JSON.stringify({ id: 42, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'author'] });
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    server.keepAliveTimeout = 30_000;
    server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
  } else if (role === 'ours') {
    const proxy = await startProxy({ port: 0, allowPrivate: true, allowOrigins: '*' });
    proxy.server.keepAliveTimeout = 30_000;
    announce(proxy.port);
  } else {
    // cors-anywhere has no address checks at all; it reaches the loopback API without any setting.
    const corsAnywhere = require('cors-anywhere') as { createServer(options: object): ReturnType<typeof createServer> };
    const server = corsAnywhere.createServer({ requireHeader: [], removeHeaders: [] });
    server.keepAliveTimeout = 30_000;
    server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
  }
}

async function startChild(role: Role): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), role], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { port: Number(chunk.toString().trim()), child };
}

async function measure(label: string, url: string): Promise<number> {
  const options = { url, connections: CONNECTIONS, headers: { origin: ORIGIN } };
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(`  ${label.padEnd(14)} ${Math.round(result.requests.average).toLocaleString('en-US').padStart(8)} req/s   p99 ${result.latency.p99} ms${failures ? `   FAILED RESPONSES: ${failures}` : ''}`);
  if (failures > 0) process.exitCode = 1;
  return result.requests.average;
}

async function main(): Promise<void> {
  const api = await startChild('api');
  const ours = await startChild('ours');
  const anchor = await startChild('cors-anywhere');
  try {
    const target = `http://127.0.0.1:${api.port}/users/42`;
    const routes = [
      ['direct', target],
      ['try-it-proxy', `http://127.0.0.1:${ours.port}/${target}`],
      ['cors-anywhere', `http://127.0.0.1:${anchor.port}/${target}`],
    ] as const;
    console.log(`autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per route (after ${WARMUP_S} s warm-up), ${ROUNDS} interleaved rounds, small JSON response`);
    const best = new Map<string, number>();
    for (let round = 1; round <= ROUNDS; round += 1) {
      console.log(`round ${round}`);
      const rates: number[] = [];
      for (const [label, url] of routes) {
        rates.push(await measure(label, url));
        best.set(label, Math.max(best.get(label) ?? 0, rates.at(-1)!));
      }
      console.log(`  this round: try-it-proxy vs cors-anywhere ${(rates[1]! / rates[2]!).toFixed(2)}x`);
    }
    const [direct, oursRate, anchorRate] = routes.map(([label]) => best.get(label)!);
    console.log(`best rounds: direct ${Math.round(direct!)}, try-it-proxy ${Math.round(oursRate!)}, cors-anywhere ${Math.round(anchorRate!)} req/s`);
    console.log(`try-it-proxy vs cors-anywhere: ${(oursRate! / anchorRate!).toFixed(2)}x (goal >= 2x)`);
    console.log(`try-it-proxy vs direct: ${(oursRate! / direct!).toFixed(2)}x (context: the cost of one extra hop)`);
  } finally {
    for (const { child } of [api, ours, anchor]) child.kill();
  }
}

const role = process.argv[2] as Role | undefined;
if (role) await serve(role);
else await main();
