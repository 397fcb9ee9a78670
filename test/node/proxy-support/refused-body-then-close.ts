// Run as a child process by proxy-pause-timer-exit.test.ts: a body of undeclared length refused over maxRequestBytes,
// then the proxy and the API closed. The process must then exit on its own.
import { Readable } from 'node:stream';
import { allowOnlyLoopbackPort, listen, startTestProxy, viaProxy } from './servers.js';

const api = await listen((request, response) => {
  request.resume();
  request.on('end', () => response.end('ok'));
});
// A pause timeout far longer than the parent waits: a timer left armed would hold the process that long.
const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), maxRequestBytes: 1024, timeout: 600_000 });
const response = await viaProxy(proxy, `/${api.origin}/upload`, { method: 'POST', body: Readable.from([Buffer.alloc(600, 'x'), Buffer.alloc(600, 'y')]) });
await proxy.close();
await api.close();
console.log(`refused ${response.status}, closed`);
