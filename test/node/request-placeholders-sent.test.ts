// A request sent with placeholders the active environment cannot fill (strictVariables off, the default) goes out
// with them as written; its response says so, and where, so that a 200 or a 401 is not read as the API's verdict on
// a value that was never sent.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine } from '../../src/core/index.js';

interface Received {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('A response to a request sent with placeholders as written', () => {
  let server: Server;
  let origin: string;
  const received: Received[] = [];
  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        // As an API does with a token it does not know.
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid token"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const engineWith = (variables: Record<string, string>, defaultHeaders: Record<string, string> = {}) =>
    new RequestEngine({ environments: new EnvironmentManager({ name: 'Sandbox', variables: { base_url: origin, ...variables } }), config: { defaultHeaders, history: { enabled: false } } });

  it('warns that a default header went out with {{token}} as written, naming the header and the environment', async () => {
    const engine = engineWith({}, { Authorization: 'Bearer {{token}}' });
    const response = await engine.send({ method: 'GET', url: '/pets' });
    assert.equal(received.at(-1)!.headers.authorization, 'Bearer {{token}}');
    assert.equal(response.status, 401);
    assert.deepEqual(response.warnings, [
      'Sent with {{token}} (in the Authorization header) as written: the API got the braces, not a value. {{token}} has no value in environment "Sandbox". Define it there, or pick another environment.',
    ]);
  });

  it('names every place each one went: the URL, each header by name, the body; a cycle apart from an undefined name', async () => {
    const engine = engineWith({ self: 'a{{self}}', token: 't' });
    const response = await engine.send({
      method: 'POST',
      url: '/pets/{{pet_id}}',
      headers: [{ name: 'X-Pet', value: '{{pet_id}}' }, { name: 'X-Loop', value: '{{self}}' }, { name: 'X-Off', value: '{{off}}', enabled: false }],
      body: '{"id": "{{ pet_id }}", "owner": "{{Token}}"}',
    });
    assert.equal(received.at(-1)!.url, '/pets/%7B%7Bpet_id%7D%7D');
    assert.equal(response.warnings.length, 1);
    assert.equal(
      response.warnings[0],
      'Sent with {{pet_id}} (in the URL, the X-Pet header, the body), {{Token}} (in the body), {{self}} (in the X-Loop header) as written: the API got the braces, not a value. ' +
        '{{pet_id}}, {{Token}} have no value in environment "Sandbox". Define them there, or pick another environment. Did you mean {{token}} for {{Token}}? ' +
        '{{self}} refers back to itself through its value, or nests more than 10 levels deep. Change that value to end in plain text.',
    );
  });

  it('never puts a value in the warning: a secret beside the placeholder stays out of it', async () => {
    const engine = engineWith({ api_key: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' }, { Authorization: 'Bearer {{api_key}}:{{api_secret}}' });
    const response = await engine.send({ method: 'GET', url: '/pets?key={{api_key}}&sig={{signature}}' });
    assert.equal(received.at(-1)!.headers.authorization, 'Bearer sk_live_4eC39HqLyjWDarjtT1zdp7dc:{{api_secret}}');
    assert.match(response.warnings[0]!, /^Sent with \{\{signature\}\} \(in the URL\), \{\{api_secret\}\} \(in the Authorization header\) as written/);
    assert.ok(!response.warnings[0]!.includes('sk_live'), response.warnings[0]);
  });

  it('says nothing when every placeholder had a value, or when a before-send rewrite filled the one missing', async () => {
    const engine = engineWith({ token: 'abc' }, { Authorization: 'Bearer {{token}}' });
    assert.deepEqual((await engine.send({ method: 'GET', url: '/pets' })).warnings, []);
    const lacking = engineWith({}, { Authorization: 'Bearer {{token}}' });
    const prepared = lacking.prepare({ method: 'GET', url: '/pets' });
    assert.deepEqual(prepared.missing, ['token']);
    const rewritten = await lacking.execute({ ...prepared, headers: { Authorization: 'Bearer signed-by-the-page' } });
    assert.equal(received.at(-1)!.headers.authorization, 'Bearer signed-by-the-page');
    assert.deepEqual(rewritten.warnings, []);
  });

  it('names the environment the request was resolved in, when the reader switches or defines the variable before the response ends', async () => {
    // The response is held until the reader has acted: a slow API, or a stream.
    let answer = () => {};
    const slow = createServer((_request, response) => {
      answer = () => response.writeHead(401).end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowOrigin = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      for (const readerActs of ['picks an environment that defines it', 'defines it in the same environment'] as const) {
        const environments = new EnvironmentManager(
          { name: 'Sandbox', variables: { base_url: slowOrigin } },
          { name: 'Production', variables: { base_url: slowOrigin, token: 'prod-secret' } },
        );
        const engine = new RequestEngine({ environments, config: { history: { enabled: false } } });
        let arrived = false;
        slow.once('request', () => (arrived = true));
        const sending = engine.send({ method: 'GET', url: '/pets', headers: { Authorization: 'Bearer {{token}}' } });
        for (let wait = 0; !arrived && wait < 500; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
        if (readerActs === 'picks an environment that defines it') environments.setActive('Production');
        else environments.add({ name: 'Sandbox', variables: { base_url: slowOrigin, token: 'typed-by-the-reader' } });
        answer();
        const response = await sending;
        assert.deepEqual(response.warnings, [
          'Sent with {{token}} (in the Authorization header) as written: the API got the braces, not a value. {{token}} has no value in environment "Sandbox". Define it there, or pick another environment.',
        ], readerActs);
      }
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
