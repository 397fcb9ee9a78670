// A path copied from an OpenAPI document, `/pets/{petId}`, would go out as /pets/%7BpetId%7D, which no route matches:
// refused by Send (nothing goes out), told while typing and by the template, with the placeholder to write. Braces in
// the query (JSON in a filter) and placeholders, whole or in `{{{x}}}`, are not taken for one. Sends go to a loopback
// server of the test's own.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine, RequestError } from '../../src/core/index.js';

const TOLD = "The URL holds {petId}, a path parameter as OpenAPI writes it, which would be sent as %7BpetId%7D: write {{petId}} for a variable's value, or the value itself.";

describe('an OpenAPI path parameter in the URL', () => {
  let server: Server;
  let origin: string;
  const paths: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      paths.push(request.url!);
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const engineWith = (variables: Record<string, string>) => new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables }) });

  it('is refused by Send with the placeholder to write, told while typing and by the template, and nothing goes out', async () => {
    const engine = engineWith({ base_url: origin });
    const request = { method: 'GET', url: '{{base_url}}/pets/{petId}/photo' };
    assert.deepEqual(engine.inspect(request).warnings, [TOLD]);
    const sent = await engine.send(request).then(() => undefined, (error: unknown) => error);
    assert.ok(sent instanceof RequestError && sent.kind === 'invalid-url', String(sent));
    assert.equal(sent.message, TOLD);
    assert.throws(() => engine.template(request), (error: unknown) => error instanceof RequestError && error.message === TOLD);
    assert.deepEqual(paths, [], 'nothing went out');
    // Written as told, it goes.
    const fixed = engineWith({ base_url: origin, petId: '7' });
    assert.equal((await fixed.send({ method: 'GET', url: '{{base_url}}/pets/{{petId}}/photo' })).status, 200);
    assert.deepEqual(paths, ['/pets/7/photo']);
  });

  it('leaves braces in the query, placeholders and {{{x}}} alone', async () => {
    const engine = engineWith({ base_url: origin, x: 'y' });
    for (const url of ['{{base_url}}/search?filter={"a":1}', '{{base_url}}/search?q={x}', '{{base_url}}/{{x}}']) {
      assert.deepEqual(engine.inspect({ method: 'GET', url }).warnings, [], url);
    }
    // A fragment is warned of as one, never sent.
    assert.match(engine.inspect({ method: 'GET', url: '{{base_url}}/a#{x}' }).warnings.join(), /starts a fragment/);
    assert.ok(!engine.inspect({ method: 'GET', url: '{{base_url}}/a#{x}' }).warnings.includes(TOLD));
    // `{{{x}}}` holds the placeholder {{x}} between braces, as DESIGN §3 reads it: not this mistake.
    assert.ok(!engine.inspect({ method: 'GET', url: '{{base_url}}/{{{x}}}' }).warnings.includes(TOLD));
  });
});
