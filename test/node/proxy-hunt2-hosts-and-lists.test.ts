// Hosts as operators and pages write them: a comma-separated list given as one allowTargets / allowOrigins entry (or
// one --allow-target / --allow-origin), an unbracketed IPv6 address as a target host, `localhost.` (fully qualified)
// as a target and as a page's origin, and `[::1]` as the address to listen on. Loopback servers only; `localhost.` is
// answered as loopback without asking any resolver.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { describe, it } from 'node:test';
import { once } from 'node:events';
import { ConfigError } from '../../src/core/errors.js';
import { CliUsageError, parseCliArguments } from '../../src/proxy/cli-arguments.js';
import { reservedLoopbackAddresses, systemResolver } from '../../src/proxy/guarded-connector.js';
import { OriginPolicy } from '../../src/proxy/origin-policy.js';
import { TargetPolicy } from '../../src/proxy/target-policy.js';
import { allowOnlyLoopbackPort, echoHandler, listen, refusalCode, startTestProxy, viaProxy, type Echo } from './proxy-support/servers.js';

describe('a list written as one entry', () => {
  it('is refused as an allowTargets entry, saying to give each host its own', () => {
    for (const entry of ['api.example.com,api2.example.com', 'api.example.com;api2.example.com', 'api.example.com,']) {
      assert.throws(
        () => new TargetPolicy([entry]),
        (error: unknown) => error instanceof ConfigError && error.field === 'allowTargets[0]' && /give each host as an entry of its own/.test(error.message),
        entry,
      );
    }
  });

  it('is refused as an allowOrigins entry, saying to give each origin its own', () => {
    assert.throws(
      () => new OriginPolicy(['https://docs.example.com,staging.example.com']),
      (error: unknown) => error instanceof ConfigError && error.field === 'allowOrigins[0]' && /must be one origin: give each as an entry of its own/.test(error.message),
    );
  });

  it('is refused by try-it-proxy for --allow-target and --allow-origin, naming the flag', () => {
    for (const argv of [['--allow-target', 'api.example.com,api2.example.com'], ['--allow-origin', 'https://docs.example.com,staging.example.com']]) {
      assert.throws(
        () => parseCliArguments(argv),
        (error: unknown) => error instanceof CliUsageError && error.message.startsWith(`Invalid ${argv[0]}:`) && /of its own \(with try-it-proxy, one /.test(error.message),
        argv.join(' '),
      );
    }
  });
});

describe('an IPv6 address as an allowTargets entry', () => {
  it('is refused unbracketed with the bracketed spelling, and taken in brackets', () => {
    assert.throws(
      () => new TargetPolicy(['::1']),
      (error: unknown) => error instanceof ConfigError && /write an IPv6 address in brackets, as in a URL: \[::1\]/.test(error.message),
    );
    assert.equal(new TargetPolicy(['[::1]']).description, '[::1]');
  });
});

describe('localhost. (fully qualified)', () => {
  it('is loopback without asking a resolver, as *.localhost is; localhost itself is still the system\'s to answer', async () => {
    for (const name of ['localhost.', 'LOCALHOST.']) assert.deepEqual(reservedLoopbackAddresses(name), ['127.0.0.1', '::1'], name);
    assert.deepEqual(await systemResolver('localhost.'), ['127.0.0.1', '::1']);
    for (const name of ['localhost', 'notlocalhost.', 'localhost.example.']) assert.equal(reservedLoopbackAddresses(name), undefined, name);
  });

  it('is relayed to as a target, with the system resolver', async () => {
    const api = await listen(echoHandler());
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port) });
    try {
      const response = await viaProxy(proxy, `/http://localhost.:${api.port}/pets`);
      assert.equal(response.status, 200, response.text);
      const echo = response.json<Echo>();
      assert.equal(echo.url, '/pets');
      assert.equal(echo.headers.host, `localhost.:${api.port}`);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it("is a loopback page's origin under allowOrigins: 'loopback'", () => {
    const policy = new OriginPolicy('loopback');
    for (const origin of ['http://localhost.:8000', 'https://docs.localhost.:5173']) assert.equal(policy.allows(origin), true, origin);
    for (const origin of ['http://localhost.example.com', 'http://localhost..:8000', 'http://example.com.']) assert.equal(policy.allows(origin), false, origin);
  });
});

describe('startProxy with host [::1]', () => {
  it('listens on ::1, as the brackets of its own url write it, instead of looking "[::1]" up as a name', async () => {
    const proxy = await startTestProxy({ host: '[::1]' });
    try {
      assert.equal(proxy.url, `http://[::1]:${proxy.port}/`);
      const request = get(proxy.url);
      const [response] = (await once(request, 'response')) as [import('node:http').IncomingMessage];
      response.resume();
      assert.equal(response.statusCode, 200);
    } finally {
      await proxy.close();
    }
  });
});

// refusalCode is what tells a proxy refusal from the API's own answer: a target that is not allowed stays refused.
describe('allowTargets with localhost', () => {
  it('matches localhost. and refuses a host it does not list', async () => {
    const api = await listen(echoHandler());
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), allowTargets: ['localhost'] });
    try {
      assert.equal((await viaProxy(proxy, `/http://localhost.:${api.port}/`)).status, 200);
      assert.equal(refusalCode(await viaProxy(proxy, `/http://127.0.0.1:${api.port}/`)), 'target_not_allowed');
    } finally {
      await proxy.close();
      await api.close();
    }
  });
});
