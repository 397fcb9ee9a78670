// verifySignature given the body and the header the other way round, as (header, rawBody, secret): every request would
// simply be refused, with nothing pointing at the call. Like a signature passed as the secret, it is named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../src/core/errors.js';
import { WebhookSigner, verifySignature } from '../../src/webhook/index.js';
import { sign } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const body = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: {} });
const signature = sign(body, SECRET);
const swapped = (error: unknown) => error instanceof InvalidArgumentError && /the arguments are \(rawBody, header, secret\)/.test(error.message);

describe('verifySignature with the body and the header swapped', () => {
  it('throws InvalidArgumentError saying the order of the arguments, for a text body or a Buffer one', async () => {
    await assert.rejects(verifySignature(signature, body, SECRET), swapped);
    await assert.rejects(verifySignature(signature, Buffer.from(body) as never, SECRET), swapped);
    await assert.rejects(verifySignature(signature, new Uint8Array(Buffer.from(body)) as never, SECRET), swapped);
    await assert.rejects(new WebhookSigner(SECRET).verify(signature, body), swapped);
  });

  it('in the right order, still verifies, and a body that is itself a signature is checked as any other', async () => {
    assert.equal(await verifySignature(body, signature, SECRET), true);
    assert.equal(await verifySignature(signature, sign(signature, SECRET), SECRET), true);
    assert.equal(await verifySignature(signature, sign(signature, 'other'), SECRET), false);
  });
});
