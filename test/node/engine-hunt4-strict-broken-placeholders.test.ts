// strictVariables refuses a placeholder a brace short (`{{token}`) wherever it is, as it refuses one in the URL, naming
// where (the header by name, the body) and how to write it; an empty `{{ }}` outside the URL is refused naming where it
// is. Sends go to a loopback server of the test's own, which counts them: nothing goes out when refused. Failed on the
// code as it was before: a broken placeholder in a header value or the body was sent with a warning, and the refusal
// of `{{ }}` in a header did not say which header.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine, RequestError, type ConsoleRequest } from '../../src/core/index.js';

/** A server on 127.0.0.1 that answers with the Authorization header and body it got, and counts the requests. */
async function startEcho() {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ authorization: request.headers.authorization, body: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    count: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type Echo = Awaited<ReturnType<typeof startEcho>>;

function engineWith(variables: Record<string, string>, config: { strictVariables?: boolean; defaultHeaders?: Record<string, string> } = {}): RequestEngine {
  return new RequestEngine({ config, environments: new EnvironmentManager({ name: 'Prod', variables }) });
}

/** The RequestError that sending `request` rejects with. */
async function sendRefusal(engine: RequestEngine, request: ConsoleRequest): Promise<RequestError> {
  const error = await engine.send(request).then(() => undefined, (failure: unknown) => failure);
  assert.ok(error instanceof RequestError, `expected a RequestError, got ${String(error)}`);
  return error;
}

describe('strictVariables and a placeholder a brace short outside the URL', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho();
  });
  after(() => echo.close());

  it('refuses one in a header value, naming the header and the fix, and sends nothing', async () => {
    const engine = engineWith({ base_url: echo.origin, token: 't0k' }, { strictVariables: true });
    const request = { method: 'GET', url: '{{base_url}}/me', headers: { Authorization: 'Bearer {{token}' } };
    const error = await sendRefusal(engine, request);
    assert.equal(error.kind, 'unresolved-variables');
    assert.equal(error.message, 'Not sent: the Authorization header holds {{token}, which is not a placeholder (a placeholder has two braces on each side): write {{token}}.');
    assert.equal(echo.count(), 0);
    // Written as told, it goes, with the value.
    const sent = await engine.send({ ...request, headers: { Authorization: 'Bearer {{token}}' } });
    assert.equal(JSON.parse(sent.text).authorization, 'Bearer t0k');
    // Braces that pair up (a GraphQL query) are no placeholder a brace short: sent.
    const graphQl = '{"query": "{me{name}}"}';
    const query = await engine.send({ method: 'POST', url: '{{base_url}}/q', headers: { 'Content-Type': 'application/json' }, body: graphQl });
    assert.equal(JSON.parse(query.text).body, graphQl);
    // Not strict: sent as written, with the warning.
    const lenient = engineWith({ base_url: echo.origin });
    const response = await lenient.send({ method: 'POST', url: '{{base_url}}/pets', headers: { 'Content-Type': 'text/plain' }, body: 'id={{pet_id}' });
    assert.equal(JSON.parse(response.text).body, 'id={{pet_id}');
    assert.deepEqual(response.warnings, ['The body holds {{pet_id}, which is not a placeholder (a placeholder has two braces on each side): write {{pet_id}}; otherwise the API gets the braces, not a value.']);
  });

  it('refuses one in the body, and one in a default header, each named', async () => {
    const engine = engineWith({ base_url: echo.origin, pet_id: '7' }, { strictVariables: true, defaultHeaders: { 'X-Api-Key': '{key}}' } });
    const before = echo.count();
    const body = await sendRefusal(engine, { method: 'POST', url: '{{base_url}}/pets', headers: { 'X-Api-Key': 'k' }, body: '{"id": "{{ pet_id }"}' });
    assert.equal(body.message, 'Not sent: the body holds {{ pet_id }, which is not a placeholder (a placeholder has two braces on each side): write {{ pet_id }}.');
    const header = await sendRefusal(engine, { method: 'GET', url: '{{base_url}}/pets' });
    assert.equal(header.message, 'Not sent: the X-Api-Key header holds {key}}, which is not a placeholder (a placeholder has two braces on each side): write {{key}}.');
    assert.equal(echo.count(), before);
  });

});

describe('strictVariables and a placeholder left unresolved outside the URL', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho();
  });
  after(() => echo.close());

  it('says where an empty {{ }} is, by header name or the body', async () => {
    const engine = engineWith({ base_url: echo.origin }, { strictVariables: true });
    const header = await sendRefusal(engine, { method: 'GET', url: '{{base_url}}/me', headers: { 'X-Trace': '{{ }}' } });
    assert.equal(header.kind, 'unresolved-variables');
    assert.equal(header.message, 'Not sent: {{}} is an empty placeholder (nothing but spaces, if anything, between its braces), so it names no variable. Write a variable\'s name between the braces, or remove them. {{}} is in the X-Trace header.');
    const body = await sendRefusal(engine, { method: 'POST', url: '{{base_url}}/me', body: 'a={{}}' });
    assert.match(body.message, /remove them\. \{\{\}\} is in the body\.$/);
    assert.equal(echo.count(), 0);
  });

  it('names the places of undefined variables too, when one is outside the URL; a URL alone stays as it was', async () => {
    const engine = engineWith({ base_url: echo.origin }, { strictVariables: true });
    const both = await sendRefusal(engine, { method: 'POST', url: '{{base_url}}/pets/{{pet_id}}', headers: { Authorization: 'Bearer {{token}}' }, body: '{{token}}' });
    assert.equal(both.message, 'Not sent: {{pet_id}}, {{token}} have no value in environment "Prod". Define them there, or pick another environment. {{pet_id}} is in the URL; {{token}} is in the Authorization header and the body.');
    const urlOnly = await sendRefusal(engine, { method: 'GET', url: '{{base_url}}/pets/{{pet_id}}' });
    assert.equal(urlOnly.message, 'Not sent: {{pet_id}} has no value in environment "Prod". Define it there, or pick another environment.');
    assert.equal(echo.count(), 0);
  });
});

describe('strictVariables and a placeholder left unresolved in a header name', () => {
  it('names the header name it is in', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' }, { strictVariables: true });
    assert.throws(
      () => engine.prepare({ method: 'GET', url: '{{base_url}}/me', headers: { 'X-{{tenant}}-Key': 'k' } }),
      (error: unknown) => error instanceof RequestError && error.message === 'Not sent: {{tenant}} has no value in environment "Prod". Define it there, or pick another environment. {{tenant}} is in the header name X-{{tenant}}-Key.',
    );
  });
});
