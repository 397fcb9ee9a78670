import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MASK, maskedValue } from '../../src/components/env-picker/secret-masking.js';

/** What each value shows under a name that says nothing (`undefined`: shown as it is, with no Show button). */
const shownUnderNeutralName = (values: string[]) => values.map((value) => maskedValue('value', value));

describe('maskedValue', () => {
  it('masks a URL password up to the last @ before the path, where URL parsers split it', () => {
    assert.deepEqual(shownUnderNeutralName(['postgres://admin:p@ssw0rd@db.internal/app', 'https://user:hunter2@api.example.com/v1?to=a@b.example']), [
      `postgres://admin:${MASK}@db.internal/app`,
      `https://user:${MASK}@api.example.com/v1?to=a@b.example`,
    ]);
  });

  it('masks user info without a password whole, as a token', () => {
    assert.deepEqual(shownUnderNeutralName(['https://mytokenvalue123@api.example.com', 'https://user:@api.example.com', 'https://@api.example.com']), [
      `https://${MASK}@api.example.com`,
      undefined,
      undefined,
    ]);
  });

  it('masks the user info of every URL in the value, wherever it starts', () => {
    assert.deepEqual(
      shownUnderNeutralName([' https://user:pw@api.example.com', 'jdbc:postgresql://user:pw@db.internal/app', 'primary postgres://a:pw1@one, replica postgres://b:pw2@two']),
      [` https://user:${MASK}@api.example.com`, `jdbc:postgresql://user:${MASK}@db.internal/app`, `primary postgres://a:${MASK}@one, replica postgres://b:${MASK}@two`],
    );
  });

  it('masks the values of credential query parameters, the rest of the URL readable', () => {
    assert.deepEqual(
      shownUnderNeutralName([
        'https://api.example.com/v1?api_key=SECRET',
        'https://api.example.com/v1?page=2&Token=SECRET&sort=name',
        'https://app.example/callback#access_token=SECRET&expires_in=3600',
        'https://api.example.com/v1?api%5Fkey=SECRET',
        'https://api.example.com/v1?page=2&monkey=bananas&token=',
      ]),
      [
        `https://api.example.com/v1?api_key=${MASK}`,
        `https://api.example.com/v1?page=2&Token=${MASK}&sort=name`,
        `https://app.example/callback#access_token=${MASK}&expires_in=3600`,
        `https://api.example.com/v1?api%5Fkey=${MASK}`,
        undefined,
      ],
    );
  });

  it('masks the secret pairs of a connection string, the rest readable', () => {
    assert.deepEqual(
      shownUnderNeutralName([
        'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc+/123==;EndpointSuffix=core.windows.net',
        'Server=tcp:db.example.net,1433;Database=app;User ID=admin;Password=hunter2;Encrypt=true',
        'Host=db;Username=app;Pwd=hunter2',
        'q=dogs;sort=name',
        'https://auth.example.com/?q=1',
        'Password=;Host=db',
      ]),
      [
        `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${MASK};EndpointSuffix=core.windows.net`,
        `Server=tcp:db.example.net,1433;Database=app;User ID=admin;Password=${MASK};Encrypt=true`,
        `Host=db;Username=app;Pwd=${MASK}`,
        undefined,
        undefined,
        undefined,
      ],
    );
  });

  it('masks names holding a secret word, in any case, digits after it or not', () => {
    const names = ['passcode', 'PassCode', 'PASSCODE', 'pass1', 'key2', 'token2', 'pw', 'user_pw', 'dbPW', 'privkey', 'creds', 'aws_creds', 'hmac', 'totp', 'authorization', 'authorisation', 'proxy_authorisation', 'AuthToken'];
    assert.deepEqual(
      names.filter((name) => maskedValue(name, 'abc') !== MASK),
      [],
    );
  });

  it('shows the values of names that only contain a secret word', () => {
    const names = ['author', 'authority', 'authors', 'path', 'keyword', 'pinned', 'spin', 'compass', 'bypass'];
    assert.deepEqual(
      names.filter((name) => maskedValue(name, 'abc') !== undefined),
      [],
    );
  });

  it('masks well-known credential formats under any name, and not look-alikes', () => {
    const secrets = [
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA',
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      `sk-proj-${'Ab1_-'.repeat(30)}`,
      `sk-${'aB3'.repeat(16)}`,
      `AIza${'Sy-_0'.repeat(7)}`,
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      `npm_${'a1B2'.repeat(9)}`,
      'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
    ];
    assert.deepEqual(shownUnderNeutralName(secrets), secrets.map(() => MASK));
    const lookAlikes = [
      '-----BEGIN PUBLIC KEY-----',
      'sk-short',
      `task-${'aB3'.repeat(16)}`,
      `AIza${'Sy-_0'.repeat(6)}`,
      'npm_package_version',
    ];
    assert.deepEqual(shownUnderNeutralName(lookAlikes), lookAlikes.map(() => undefined));
  });

  // Every pattern is linear in the value's length: each of these took a few milliseconds, where `\beyJ[\w-]+\.`
  // rescanned from every `-eyJ` and took 12 s on the first (quadratic: 0.5 s at 64 KB). No time is asserted, as
  // test machines are noisy; the inputs are long enough that a quadratic pattern shows in the test's duration.
  it('reads long hostile values right', () => {
    const long = (unit: string, prefix = '') => prefix + unit.repeat((256 * 1024) / unit.length);
    const hostile = [
      long('eyJ-'), long('.eyJ'), long('a:'), long('a://'), long('b', 'a://'), long('@', 'a://'), long('?a'), long('&a='),
      long('-----BEGIN '), long('A ', '-----BEGIN '), long('sk-'), long('AIza'), long('npm_'), long('ghp_'), long('xoxb-'),
      long(' ', ';'), long(';a '),
    ];
    assert.deepEqual(shownUnderNeutralName(hostile), [
      undefined, undefined, undefined, undefined, undefined, `a://${MASK}@`, undefined, undefined,
      undefined, undefined, undefined, undefined, undefined, MASK, MASK,
      undefined, undefined,
    ]);
    assert.equal(maskedValue(long('aB'), 'abc'), undefined);
  });
});
