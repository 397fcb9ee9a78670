// The engine's own options, and reading a body with nothing kept for display.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, History, InvalidArgumentError, RequestEngine, readBody, type RequestEngineOptions } from '../../src/core/index.js';

/** The message of the InvalidArgumentError that `new RequestEngine(options)` throws about `argument`. */
function refusedOption(options: unknown, argument: string): string {
  let message = '';
  assert.throws(
    () => new RequestEngine(options as RequestEngineOptions),
    (error: unknown) => {
      assert.ok(error instanceof InvalidArgumentError, String(error));
      assert.equal(error.argument, argument);
      message = error.message;
      return true;
    },
  );
  return message;
}

describe('RequestEngine options', () => {
  it('refuses a field of the console configuration given beside config, which would be ignored, saying where it goes', () => {
    assert.match(refusedOption({ corsProxy: 'https://proxy.example/' }, 'options.corsProxy'), /is not an option of RequestEngine; the console configuration's corsProxy goes in config: new RequestEngine\(\{ config: \{ corsProxy \} \}\)/);
    assert.match(refusedOption({ config: {}, timeout: 5_000 }, 'options.timeout'), /config: \{ timeout \}/);
  });

  it('refuses a misspelt option, listing the options', () => {
    assert.match(refusedOption({ confg: { corsProxy: 'https://proxy.example/' } }, 'options.confg'), /is not an option of RequestEngine; the options are config, environments, history, historyStore, pageOrigin, fetch, displayLimit, downloadLimit/);
    refusedOption('https://proxy.example/', 'options');
    refusedOption(null, 'options');
  });

  it('refuses environments and history given as plain data where the objects belong, instead of failing at the first send', () => {
    const environments = [{ name: 'Production', variables: { base_url: 'https://api.example.com' } }];
    assert.match(refusedOption({ environments }, 'options.environments'), /must be an EnvironmentManager; the console configuration's environments goes in config: new RequestEngine\(\{ config: \{ environments \} \}\)/);
    assert.match(refusedOption({ history: { enabled: false } }, 'options.history'), /must be a History; the console configuration's history goes in config/);
    refusedOption({ fetch: 'fetch' }, 'options.fetch');
    refusedOption({ historyStore: {} }, 'options.historyStore');
  });

  it('takes every option it has, and undefined for any of them', () => {
    const engine = new RequestEngine({
      config: {},
      environments: new EnvironmentManager(...[{ name: 'Production', variables: {} }]),
      history: new History({ enabled: false }),
      historyStore: () => undefined,
      pageOrigin: 'https://docs.example.com',
      fetch: globalThis.fetch,
      displayLimit: 10,
      downloadLimit: 10,
    });
    assert.equal(engine.environments.active()?.name, 'Production');
    assert.equal(new RequestEngine({ environments: undefined, history: undefined }).history.config.enabled, true);
  });
});

describe('A display limit of 0', () => {
  const parts = ['one ', 'two'];
  const stream = () => new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });

  it('counts the body and tells progress with nothing kept, instead of failing', async () => {
    const told: [number, number, number][] = [];
    const body = await readBody(stream(), { displayLimit: 0 }, (progress) => told.push([progress.received, progress.bytes().byteLength, progress.last().byteLength]));
    assert.deepEqual(told, [[4, 0, 0], [7, 0, 0]]);
    assert.deepEqual([body.size, body.bytes.byteLength, body.truncated, body.whole?.size], [7, 0, true, 7]);
  });

  it('lets a send with onProgress complete, rather than report a broken connection', async () => {
    const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const engine = new RequestEngine({ displayLimit: 0 });
      const received: number[] = [];
      const response = await engine.send({ method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }, { onProgress: (progress) => received.push(progress.received) });
      assert.deepEqual([response.status, response.size, response.text, response.truncated], [200, 5, '', true]);
      assert.equal(received.at(-1), 5);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
