// Config read from environment variables that are not set: `secret: process.env.WEBHOOK_SECRET` and
// `Authorization: \`Bearer ${process.env.WEBHOOK_TOKEN}\``. Either would otherwise go out unsigned or as
// "Bearer undefined", and the receiver would only answer 401.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/core/errors.js';
import { WebhookChannel, WebhookSigner, createWebhookFetchHandler, createWebhookHandler, newMessage, signPayload, verifySignature } from '../../src/webhook/index.js';
import { startTestServer } from './webhook-test-server.js';

const url = 'https://hooks.example/in';
// Read as the README's example reads it, from a variable no one sets.
const UNSET = 'TRY_IT_UNSET_WEBHOOK_SECRET';

function unsetVariable(): string | undefined {
  assert.equal(process.env[UNSET], undefined, `${UNSET} must not be set for this test`);
  return process.env[UNSET];
}

function configError(make: () => unknown): ConfigError {
  try {
    make();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail('no ConfigError thrown');
}

describe('a channel secret read from a variable that is not set', () => {
  it('is refused, saying the variable is likely not set and that leaving the field out sends unsigned', () => {
    const error = configError(() => new WebhookChannel({ url, secret: unsetVariable() }));
    assert.equal(error.field, 'webhook.secret');
    assert.equal(error.value, undefined);
    assert.equal(
      error.message,
      'Invalid webhook.secret: is undefined, which is what an environment variable that is not set reads as (secret: process.env.WEBHOOK_SECRET); set the variable or pass the secret, or leave the secret field out to send unsigned requests (got undefined).',
    );
  });

  it('is refused when empty, as a variable set to nothing reads', () => {
    const error = configError(() => new WebhookChannel({ url, secret: '' }));
    assert.equal(error.field, 'webhook.secret');
    assert.equal(
      error.message,
      'Invalid webhook.secret: is an empty string, which is what an environment variable set to nothing reads as; set the variable to the secret, or leave the secret field out to send unsigned requests (got "").',
    );
  });

  it('left out, still means unsigned, and a set one signs', async () => {
    assert.equal(new WebhookChannel({ url }).signed, false);
    assert.equal(new WebhookChannel({ url, secret: 'whsec_set' }).signed, true);
    // Signed only where the variable is set, as the README suggests for that case.
    const secret = unsetVariable();
    assert.equal(new WebhookChannel({ url, ...(secret === undefined ? {} : { secret }) }).signed, false);

    const server = await startTestServer();
    try {
      const channel = new WebhookChannel({ url: server.url });
      const outcome = await channel.attempt(await channel.prepare({ type: 'user', id: 1 }, newMessage().event('user.created').payload({})));
      await channel.close();
      assert.equal(outcome.ok, true);
      assert.equal(server.requests[0]!.headers['x-signature'], undefined);
    } finally {
      await server.close();
    }
  });

  it('is refused the same way everywhere else a secret is taken, each asking whether the variable is set', async () => {
    const asksAboutTheVariable = /is the variable it is read from set\? \(got undefined\)\.$/;
    const refusals: Array<[string, () => unknown]> = [
      ['createWebhookHandler', () => createWebhookHandler({ secret: unsetVariable()!, onEvent: () => {} })],
      ['createWebhookFetchHandler', () => createWebhookFetchHandler({ secret: unsetVariable()!, onEvent: () => {} })],
      ['a rotation list', () => createWebhookHandler({ secret: ['whsec_new', unsetVariable()!], onEvent: () => {} })],
      ['new WebhookSigner', () => new WebhookSigner(unsetVariable()!)],
    ];
    for (const [what, make] of refusals) assert.match(configError(make).message, asksAboutTheVariable, what);
    for (const [what, settle] of [
      ['verifySignature', () => verifySignature('{}', 'sha256=00', unsetVariable()!)],
      ['signPayload', () => signPayload('{}', unsetVariable()!)],
    ] as const) {
      await assert.rejects(async () => settle(), (error: unknown) => error instanceof ConfigError && asksAboutTheVariable.test(error.message), what);
    }
  });
});

describe('a header value built from a variable that is not set', () => {
  const refused: Array<[string, string, 'undefined' | 'null']> = [
    ['Authorization', 'Bearer undefined', 'undefined'],
    ['Authorization', 'Token undefined', 'undefined'],
    ['Authorization', 'Basic  undefined', 'undefined'],
    ['X-Api-Key', 'undefined', 'undefined'],
    ['X-Api-Key', ' undefined ', 'undefined'],
    ['Authorization', 'Bearer null', 'null'],
    ['X-Api-Key', 'null', 'null'],
  ];
  for (const [name, value, missing] of refused) {
    it(`refuses ${name}: ${JSON.stringify(value)}, naming the header but not its value`, () => {
      const error = configError(() => new WebhookChannel({ url, headers: { [name]: value } }));
      assert.equal(error.field, `webhook.headers[${JSON.stringify(name)}]`);
      assert.equal(error.value, 'a value not shown');
      assert.match(error.message, new RegExp(`^Invalid webhook\\.headers\\["${name}"\\]: has "${missing}" for its value \\(or for the credentials after a scheme, as in "Bearer ${missing}"\\): `));
      assert.match(error.message, missing === 'undefined' ? /writes that when the variable is not set; set the variable, or leave the header out \(got a value not shown\)\.$/ : /for a value that is null .*; pass the value, or leave the header out \(got a value not shown\)\.$/);
    });
  }

  it('accepts values that only contain the word, and Origin: null, which is a value of its own', () => {
    const accepted = {
      Origin: 'null',
      'X-Note': 'undefined behaviour',
      'X-Build': 'my-app/undefined',
      'X-Flags': 'a b undefined',
      'X-Case': 'NULL',
      'X-Token': 'Bearer undefinedToken',
      'X-Other': 'Bearer null-1',
    };
    assert.deepEqual({ ...new WebhookChannel({ url, headers: accepted }).headers }, accepted);
  });

  it('is checked for the header as configured, the template string of the README included', () => {
    const headers = { Authorization: `Bearer ${unsetVariable()}` };
    assert.match(configError(() => new WebhookChannel({ url, headers })).message, /^Invalid webhook\.headers\["Authorization"\]: has "undefined"/);
  });
});

describe('a secret with whitespace around it, as read from a file', () => {
  // Each would be accepted, and then every delivery refused 401 "the secrets differ" by a receiver holding the trimmed one.
  const padded: Array<[string, string, RegExp]> = [
    ['a trailing newline (readFileSync)', 'whsec_0123456789\n', /ends with a line break, as a value read from a file often does; trim it/],
    ['a trailing CRLF', 'whsec_0123456789\r\n', /ends with a line break/],
    ['a trailing space', 'whsec_0123456789 ', /ends with whitespace, which would be part of the HMAC key; trim it/],
    ['a leading tab', '\twhsec_0123456789', /starts with whitespace/],
    ['a byte order mark', '\uFEFFwhsec_0123456789', /starts with a byte order mark \(U\+FEFF\)/],
    ['only spaces', '   ', /is only whitespace; is the variable it is read from set\?/],
  ];

  for (const [what, secret, says] of padded) {
    it(`is refused with ${what}, by the channel, both receivers, verifySignature and the signer, without showing it`, async () => {
      const refusals: Array<[string, () => unknown]> = [
        ['WebhookChannel', () => new WebhookChannel({ url, secret })],
        ['createWebhookHandler', () => createWebhookHandler({ secret, onEvent: () => {} })],
        ['createWebhookFetchHandler', () => createWebhookFetchHandler({ secret, onEvent: () => {} })],
        ['a rotation list', () => createWebhookHandler({ secret: ['whsec_new', secret], onEvent: () => {} })],
        ['new WebhookSigner', () => new WebhookSigner(secret)],
      ];
      const errors = refusals.map(([, make]) => configError(make));
      for (const [what, settle] of [
        ['verifySignature', () => verifySignature('{}', `sha256=${'0'.repeat(64)}`, secret)],
        ['signPayload', () => signPayload('{}', secret)],
      ] as const) {
        await assert.rejects(async () => settle(), (error: unknown) => error instanceof ConfigError && errors.push(error) > 0, what);
      }
      assert.equal(errors.length, 7);
      for (const error of errors) {
        assert.match(error.message, says);
        assert.match(error.message, /\(got a secret not shown\)\.$/);
        assert.ok(!error.message.includes('whsec_0123456789') && !String(error.value).includes('whsec_0123456789'), 'the secret stays out of the error');
      }
      assert.deepEqual(errors.map((error) => error.field), ['webhook.secret', 'secret', 'secret', 'secret[1]', 'secret', 'secret', 'secret']);
    });
  }

  it('accepts whitespace inside a secret, which is part of it', () => {
    assert.equal(new WebhookChannel({ url, secret: 'two words' }).signed, true);
    createWebhookHandler({ secret: 'two words', onEvent: () => {} });
  });
});
