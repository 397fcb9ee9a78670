// A placeholder a brace short (`{{pet_id}`, `{{ token }`, `{token}}`) is named where it is, with the fix: refused in the
// URL (by a send, a template and a snippet alike, which sent it percent-encoded or told to write "{" as %7B), warned
// about in a header value or the body while the request is edited and in the response, and sent. Braces that pair up
// (JSON, GraphQL, `{{{x}}}`, which holds `{{x}}` as DESIGN §3 reads it) are no such thing. Sends go to a loopback server
// of the test's own; hosts such as api.example.com are only inspected or prepared, never sent to. Failed on the code as
// it was before: no warning, the URL sent as /pets/%7B%7Bpet_id%7D, the snippet told to percent-encode "{".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, InvalidArgumentError, RequestEngine, RequestError, SnippetGenerator, generateTemplateSnippet, type ConsoleRequest } from '../../src/core/index.js';

/** A server on 127.0.0.1 that answers with what it got (path, Authorization header, body), and counts the requests. */
async function startEcho() {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { path: request.url, authorization: request.headers.authorization, body: Buffer.concat(chunks).toString() };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(got));
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

function engineWith(variables: Record<string, string>): RequestEngine {
  return new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables }) });
}

/** The RequestError that `action` throws. */
function refusal(action: () => unknown): RequestError {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof RequestError, String(error));
    return error;
  }
  assert.fail('expected a RequestError');
}

const PET_ID_TOLD = 'The URL holds {{pet_id}, which is not a placeholder (a placeholder has two braces on each side): write {{pet_id}}.';

describe('a placeholder a brace short in the URL', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho();
  });
  after(() => echo.close());

  it('is told while typing, refused by Send without a request going out, and refused as a template, all with the fix', async () => {
    const engine = engineWith({ base_url: echo.origin });
    const request = { method: 'GET', url: '{{base_url}}/pets/{{pet_id}' };
    assert.deepEqual(engine.inspect(request), { missing: [], cyclic: [], warnings: [PET_ID_TOLD] });
    const sent = await engine.send(request).then(() => undefined, (error: unknown) => error);
    assert.ok(sent instanceof RequestError && sent.kind === 'invalid-url', String(sent));
    assert.equal(sent.message, PET_ID_TOLD);
    assert.equal(echo.count(), 0, 'nothing went out');
    // The template refuses it too, so the console shows no "Sends to" line and no snippet of it.
    assert.equal(refusal(() => engine.template(request)).message, PET_ID_TOLD);
    // Written as told, it goes.
    const fixed = { method: 'GET', url: '{{base_url}}/pets/{{pet_id}}' };
    const good = engineWith({ base_url: echo.origin, pet_id: '7' });
    assert.deepEqual(good.inspect(fixed).warnings, []);
    assert.equal(JSON.parse((await good.send(fixed)).text).path, '/pets/7');
  });

  it('is named for each form: spaces kept, an opening brace short, no closing brace at all, a relative URL', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const cases: [url: string, told: string][] = [
      ['{{base_url}}/pets/{{ pet_id }', 'The URL holds {{ pet_id }, which is not a placeholder (a placeholder has two braces on each side): write {{ pet_id }}.'],
      ['{{base_url}}/pets/{pet_id}}', 'The URL holds {pet_id}}, which is not a placeholder (a placeholder has two braces on each side): write {{pet_id}}.'],
      ['{{base_url}}/pets/{{pet_id/photos', 'The URL holds {{pet_id, which is not a placeholder (a placeholder has two braces on each side): write {{pet_id}}.'],
      ['/pets/{{pet_id}', PET_ID_TOLD],
      ['{{base_url}}/{{a}/{{b}', 'The URL holds {{a}, {{b}, which are not placeholders (a placeholder has two braces on each side): write {{a}}, {{b}}.'],
    ];
    for (const [url, told] of cases) {
      assert.deepEqual(engine.inspect({ method: 'GET', url }).warnings, [told], url);
      assert.equal(refusal(() => engine.prepare({ method: 'GET', url })).message, told, url);
    }
  });

  it('at its start is named too, instead of "not an absolute http(s) URL", and told while typing though no scheme shows', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const told = 'The URL holds {{base_url}, which is not a placeholder (a placeholder has two braces on each side): write {{base_url}}.';
    assert.deepEqual(engine.inspect({ method: 'GET', url: '{{base_url}/pets' }).warnings, [told]);
    assert.equal(refusal(() => engine.prepare({ method: 'GET', url: '{{base_url}/pets' })).message, told);
    assert.equal(refusal(() => engine.template({ method: 'GET', url: '{{base_url}/pets' })).message, told);
  });

  it('gets a snippet refusal naming it, not one telling to write "{" as %7B', () => {
    const generator = new SnippetGenerator({});
    for (const url of ['{{base_url}}/pets/{{pet_id}', 'https://api.example.com/pets/{{pet_id}']) {
      assert.throws(
        () => generateTemplateSnippet(generator, { method: 'GET', url }, 'curl'),
        (error: unknown) => error instanceof InvalidArgumentError && error.argument === 'request.url' && error.message.includes('holds {{pet_id}, which is not a placeholder') && error.message.includes('write {{pet_id}}') && !error.message.includes('%7B'),
      );
    }
  });
});

describe('a placeholder a brace short in a header value or the body', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho();
  });
  after(() => echo.close());

  it('is a warning naming the header while typing and in the response, and the request goes as written', async () => {
    const engine = engineWith({ base_url: echo.origin, token: 'sk_test_1' });
    for (const [value, fragment, fix] of [['Bearer {{token}', '{{token}', '{{token}}'], ['Bearer {{ token }', '{{ token }', '{{ token }}'], ['Bearer {token}}', '{token}}', '{{token}}']]) {
      const request = { method: 'GET', url: '{{base_url}}/me', headers: [{ name: 'Authorization', value }] };
      const told = `The Authorization header holds ${fragment}, which is not a placeholder (a placeholder has two braces on each side): write ${fix}; otherwise the API gets the braces, not a value.`;
      assert.deepEqual(engine.inspect(request).warnings, [told], value);
      const response = await engine.send(request);
      assert.equal(JSON.parse(response.text).authorization, value, 'sent as written');
      assert.deepEqual(response.warnings, [told]);
    }
  });

  it('in the body, a template whose braces do not pair up, is a warning naming the body and never a refusal', async () => {
    const engine = engineWith({ base_url: echo.origin });
    const body = '{"template": "Hello {{name}, welcome"}';
    const request = { method: 'POST', url: '{{base_url}}/templates', headers: { 'Content-Type': 'application/json' }, body };
    const told = 'The body holds {{name}, which is not a placeholder (a placeholder has two braces on each side): write {{name}}; otherwise the API gets the braces, not a value.';
    assert.deepEqual(engine.inspect(request).warnings, [told]);
    const response = await engine.send(request);
    assert.equal(JSON.parse(response.text).body, body);
    assert.deepEqual(response.warnings, [told]);
  });

  it('names three at most, each once', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const { warnings } = engine.inspect({ method: 'POST', url: '{{base_url}}/x', body: '{{a} {{a} {{b} {{c} {{d}' });
    assert.deepEqual(warnings, ['The body holds {{a}, {{b}, {{c}, which are not placeholders (a placeholder has two braces on each side): write {{a}}, {{b}}, {{c}}; otherwise the API gets the braces, not a value.']);
  });

  it('in a header name, is the likely cause Send gives for refusing the name', () => {
    const engine = engineWith({ base_url: 'https://api.example.com', suffix: 'Key' });
    const { message } = refusal(() => engine.prepare({ method: 'GET', url: '{{base_url}}/x', headers: [{ name: 'X-Api-{{suffix}', value: '1' }] }));
    assert.ok(message.endsWith(' Likely cause: it holds {{suffix}, which is not a placeholder (a placeholder has two braces on each side): write {{suffix}}.'), message);
  });
});

describe('braces that pair up', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho();
  });
  after(() => echo.close());

  it('are no broken placeholder: JSON and GraphQL bodies, {{{x}}} (the placeholder {{x}} in braces), a JSON value in the query', async () => {
    const engine = engineWith({ base_url: echo.origin, id: '7', x: 'v' });
    const requests: ConsoleRequest[] = [
      { method: 'POST', url: '{{base_url}}/pets', headers: { 'Content-Type': 'application/json' }, body: '{"pet":{"id":{{id}}}}' },
      { method: 'POST', url: '{{base_url}}/graphql', headers: { 'Content-Type': 'application/json' }, body: '{"query":"{me{name}}"}' },
      { method: 'POST', url: '{{base_url}}/render', headers: { 'Content-Type': 'text/plain' }, body: 'Hello {{{x}}}' },
      { method: 'GET', url: '{{base_url}}/graphql?query={me{name}}' },
      { method: 'GET', url: '{{base_url}}/pets/{{{x}}}' },
    ];
    for (const request of requests) {
      assert.deepEqual(engine.inspect(request).warnings, [], JSON.stringify(request));
      assert.deepEqual((await engine.send(request)).warnings, [], JSON.stringify(request));
    }
    assert.equal(JSON.parse((await engine.send(requests[2]!)).text).body, 'Hello {v}');
  });
});
