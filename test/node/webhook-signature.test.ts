import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { runInNewContext } from 'node:vm';
import { ConfigError, InvalidArgumentError } from '../../src/core/errors.js';
import { WebhookSigner, signPayload, verifySignature } from '../../src/webhook/index.js';

// GitHub's published test vector for its identical `sha256=` format (X-Hub-Signature-256).
const GITHUB_SECRET = "It's a Secret to Everybody";
const GITHUB_BODY = 'Hello, World!';
const GITHUB_SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

const secret = 'whsec_test';
const body = Buffer.from('{"event":"user.created","sent_at":"2025-01-02T03:04:05.678Z","notifiable":{"type":"user","id":42},"data":{"email":"a@example.com"}}');
const independent = (bytes: Buffer | string, key: string) => `sha256=${createHmac('sha256', key).update(bytes).digest('hex')}`;

describe('webhook signature: GitHub test vector', () => {
  it('signs "Hello, World!" to the published value', async () => {
    assert.equal(await signPayload(GITHUB_BODY, GITHUB_SECRET), GITHUB_SIGNATURE);
    assert.equal(await new WebhookSigner(GITHUB_SECRET).sign(Buffer.from(GITHUB_BODY)), GITHUB_SIGNATURE);
  });

  it('verifies the published value', async () => {
    assert.equal(await verifySignature(GITHUB_BODY, GITHUB_SIGNATURE, GITHUB_SECRET), true);
    assert.equal(await verifySignature(Buffer.from(GITHUB_BODY), GITHUB_SIGNATURE, GITHUB_SECRET), true);
    assert.equal(await verifySignature(new TextEncoder().encode(GITHUB_BODY).buffer as ArrayBuffer, GITHUB_SIGNATURE, GITHUB_SECRET), true);
  });
});

describe('webhook signature: verification', () => {
  const right = independent(body, secret);

  it('accepts the right signature (computed independently with node:crypto)', async () => {
    assert.equal(await new WebhookSigner(secret).sign(body), right);
    assert.equal(await verifySignature(body, right, secret), true);
  });

  it('rejects a signature made with another secret', async () => {
    assert.equal(await verifySignature(body, independent(body, 'another secret'), secret), false);
  });

  it('rejects a tampered body', async () => {
    const tampered = Buffer.from(body.toString().replace('42', '43'));
    assert.equal(await verifySignature(tampered, right, secret), false);
  });

  it('rejects a re-serialised body (whitespace differs from the bytes that were signed)', async () => {
    const reserialised = JSON.stringify(JSON.parse(body.toString()), null, 2);
    assert.notEqual(reserialised, body.toString());
    assert.equal(await verifySignature(reserialised, right, secret), false);
  });

  it('accepts hex digits of either case, but only the lowercase sha256= prefix', async () => {
    assert.equal(await verifySignature(body, `sha256=${right.slice(7).toUpperCase()}`, secret), true);
    assert.equal(await verifySignature(body, `SHA256=${right.slice(7)}`, secret), false);
  });

  it('answers false, never throws, for a missing header', async () => {
    assert.equal(await verifySignature(body, undefined, secret), false);
    assert.equal(await verifySignature(body, null, secret), false);
    assert.equal(await verifySignature(body, '', secret), false);
    assert.equal(await verifySignature(undefined, right, secret), false);
  });

  it('names the whole headers object passed as the header also when the body is missing', async () => {
    await assert.rejects(verifySignature(undefined, { 'x-signature': right } as never, secret), (error: unknown) => error instanceof InvalidArgumentError && /not the whole headers object/.test(error.message));
  });

  it('answers false, never throws, for a garbage header', async () => {
    for (const garbage of ['garbage', 'sha256=', 'sha256=zz', `sha1=${right.slice(7)}`, `${right} `, ` ${right}`, `${right}00`, right.slice(0, -1), 'sha256=' + 'g'.repeat(64), '\u0000'.repeat(71), [right, right], []]) {
      assert.equal(await verifySignature(body, garbage, secret), false, `header ${JSON.stringify(garbage)}`);
    }
    assert.equal(await verifySignature(body, [right], secret), true);
  });

  it('accepts the raw bytes in any shape Node hands them over', async () => {
    const pooled = Buffer.from(body.toString()); // a slice of Buffer's shared pool: byteOffset is not 0
    const copy = new Uint8Array(body);
    for (const raw of [body.toString(), body, pooled, copy, copy.buffer, new DataView(copy.buffer)]) {
      assert.equal(await verifySignature(raw as never, right, secret), true, raw.constructor.name);
    }
  });

  it("accepts an ArrayBuffer made in another realm (a vm context, Jest's test environment) as the bytes it is", async () => {
    // What `await request.arrayBuffer()` gives under Jest: its ArrayBuffer is not this realm's, so instanceof fails.
    const foreign = runInNewContext('new ArrayBuffer(length)', { length: body.length }) as ArrayBuffer;
    assert.equal(foreign instanceof ArrayBuffer, false);
    new Uint8Array(foreign).set(body);
    assert.equal(await verifySignature(foreign, right, secret), true);
  });

  it('throws InvalidArgumentError, saying to pass the raw bytes, for a parsed body or another non-byte value', async () => {
    for (const parsed of [JSON.parse(body.toString()), 42, ['a'], true]) {
      // Whatever the header: a wrong body is a setup mistake, not a bad request.
      for (const header of [right, 'garbage', undefined]) {
        await assert.rejects(verifySignature(parsed, header, secret), (error: unknown) => {
          assert.ok(error instanceof InvalidArgumentError, String(error));
          assert.match(error.message, /^Invalid rawBody: must be the raw body bytes exactly as received \(a string, Buffer, Uint8Array or ArrayBuffer\), not a parsed object; read the body before any JSON parser/);
          return true;
        });
      }
    }
    await assert.rejects(new WebhookSigner(secret).sign({ a: 1 } as never), InvalidArgumentError);
  });

  it('says how to get the bytes out of what was passed instead: a Promise, a stream, a Request or Response, a Blob, Node\'s request', async () => {
    const request = () => new Request('https://example.com/hooks', { method: 'POST', body, headers: { authorization: 'Bearer t0ken' } });
    const incoming = new IncomingMessage(new Socket());
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['a missed await', request().arrayBuffer(), 'a Promise', /it is a Promise of the body, not the body: await it, e\.g\. Buffer\.from\(await request\.arrayBuffer\(\)\)/],
      ['request.body', request().body, 'a ReadableStream', /it is a stream of the body \(request\.body\), not its bytes: read it whole first, Buffer\.from\(await request\.arrayBuffer\(\)\), or use createWebhookFetchHandler/],
      ['the Request', request(), 'a Request', /it is the Fetch API Request \(or Response\), not its body: pass Buffer\.from\(await request\.arrayBuffer\(\)\), or use createWebhookFetchHandler/],
      ['a Response', new Response(body), 'a Response', /it is the Fetch API Request \(or Response\)/],
      ['a Blob', new Blob([body]), 'a Blob', /it is a Blob, not bytes: pass Buffer\.from\(await blob\.arrayBuffer\(\)\)/],
      ["Node's request", incoming, 'an IncomingMessage', /it is a stream of the body \(Node's request, an IncomingMessage\), not its bytes: use createWebhookHandler\(options\)/],
    ];
    for (const [what, passed, shown, says] of cases) {
      await assert.rejects(verifySignature(passed as never, right, secret), (error: unknown) => {
        assert.ok(error instanceof InvalidArgumentError, `${what}: ${String(error)}`);
        assert.match(error.message, says, what);
        assert.ok(error.message.endsWith(`(got ${shown}).`), `${what}: ${error.message}`);
        assert.equal(error.value, shown, `${what}: only its kind is kept, not a request and its credentials`);
        return true;
      });
    }
    incoming.socket?.destroy();
  });

  it('accepts bytes in shared memory (a view of a SharedArrayBuffer, or one itself), which Web Crypto refuses as they are', async () => {
    const shared = new SharedArrayBuffer(body.length + 2);
    const view = new Uint8Array(shared, 1, body.length);
    view.set(body);
    assert.equal(await verifySignature(view, right, secret), true);
    assert.equal(await new WebhookSigner(secret).sign(view), right);
    const whole = new SharedArrayBuffer(body.length);
    new Uint8Array(whole).set(body);
    assert.equal(await verifySignature(whole as never, right, secret), true);
  });

  it('throws InvalidArgumentError for the whole headers object passed as the header, which would read as unsigned', async () => {
    for (const [headers, shown] of [[{ 'x-signature': right }, 'an object'], [new Headers({ 'x-signature': right }), 'a Headers'], [42, 'a number']] as const) {
      await assert.rejects(verifySignature(body, headers as never, secret), (error: unknown) => {
        assert.ok(error instanceof InvalidArgumentError, String(error));
        assert.equal(error.message, `Invalid header: must be the X-Signature header's value, e.g. req.headers['x-signature'] or, with a Fetch API Request, request.headers.get('x-signature'); not the whole headers object (got ${shown}).`);
        assert.equal(error.value, shown, 'the headers, credentials and all, are not kept in the error');
        return true;
      });
      await assert.rejects(new WebhookSigner(secret).verify(body, headers as never), InvalidArgumentError);
    }
    // What a request can carry is still an answer, never an error.
    assert.equal(await verifySignature(body, [right], secret), true);
    assert.equal(await verifySignature(body, null, secret), false);
  });

  it('throws ConfigError for an empty secret, which is a setup mistake', async () => {
    await assert.rejects(verifySignature(body, right, ''), ConfigError);
    assert.throws(() => new WebhookSigner(''), ConfigError);
  });

  it('says what a wrong secret is, and never to omit it, where a receiver needs one', async () => {
    // process.env.WEBHOOK_SECRET! when the variable is not set, and a secret read with readFileSync(path).
    for (const [wrong, shown] of [[undefined, 'undefined'], [Buffer.from(secret), 'a Buffer'], [{ secret }, 'an object'], ['', '""']] as const) {
      await assert.rejects(verifySignature(body, right, wrong as never), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.field, 'secret');
        assert.doesNotMatch(error.message, /omit it|unsigned/);
        // Bytes are told to pass their text; the rest, what a receiver's secret is.
        const problem = typeof wrong === 'object' && wrong !== null && Buffer.isBuffer(wrong) ? "must be text, the one both sides share: pass the bytes' text" : 'must be a non-empty string, the secret the sending channel signs with';
        assert.match(error.message, new RegExp(`^Invalid secret: ${problem}.* \\(got ${shown}\\)\\.$`));
        assert.ok(!String(error.value).includes(secret));
        return true;
      });
    }
  });

  it('accepts a signature made with any secret of a list, for a rotation, and no other', async () => {
    const [newSecret, oldSecret] = ['whsec_new', 'whsec_old'];
    assert.equal(await verifySignature(body, independent(body, newSecret), [newSecret, oldSecret]), true);
    assert.equal(await verifySignature(body, independent(body, oldSecret), [newSecret, oldSecret]), true);
    assert.equal(await verifySignature(body, independent(body, 'whsec_other'), [newSecret, oldSecret]), false);
    assert.equal(await verifySignature(body, 'sha256=garbage', [newSecret, oldSecret]), false);
    assert.equal(await verifySignature(undefined, independent(body, newSecret), [newSecret]), false);
    await assert.rejects(verifySignature({ parsed: true } as never, independent(body, newSecret), [newSecret, oldSecret]), InvalidArgumentError);
  });

  it('says which secret of a list is wrong, without showing any', async () => {
    await assert.rejects(verifySignature(body, right, []), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, 'Invalid secret: must hold at least one secret; during a rotation, list the new one and the old (got an empty list).');
      return true;
    });
    await assert.rejects(verifySignature(body, right, [secret, undefined as never]), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.field, 'secret[1]');
      assert.match(error.message, /^Invalid secret\[1\]: must be a non-empty string, the secret the sending channel signs with.* \(got undefined\)\.$/);
      assert.ok(!error.message.includes(secret));
      return true;
    });
  });

  it('throws ConfigError when the header and the secret are passed the other way round', async () => {
    // verifySignature(rawBody, header, secret), unlike libraries that take the secret first: every request would be false.
    await assert.rejects(verifySignature(body, secret, right), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^Invalid secret: looks like an X-Signature header; the arguments are \(rawBody, header, secret\) \(got a signature\)\.$/);
      return true;
    });
  });
});
