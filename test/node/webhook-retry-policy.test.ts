import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ConfigError } from '../../src/core/errors.js';
import { RetryPolicy, WebhookAttemptError, parseRetryAfter, type AttemptFailure } from '../../src/webhook/index.js';

function failure(attempt: number, extra: Partial<AttemptFailure> = {}): AttemptFailure {
  return { channel: 'webhook', attempt, kind: 'status', status: 500, retryAfter: undefined, error: new WebhookAttemptError('status', 'answered 500', { status: 500 }), ...extra };
}

describe('RetryPolicy', () => {
  it('has the documented defaults', () => {
    const policy = new RetryPolicy();
    assert.deepEqual(
      { attempts: policy.attempts, minDelay: policy.minDelay, maxDelay: policy.maxDelay, jitter: policy.jitter, maxRetryAfter: policy.maxRetryAfter },
      { attempts: 5, minDelay: 1_000, maxDelay: 60_000, jitter: true, maxRetryAfter: 60_000 },
    );
    assert.deepEqual({ ...RetryPolicy.defaults }, { attempts: 5, minDelay: 1_000, maxDelay: 60_000, jitter: true, maxRetryAfter: 60_000 });
  });

  it('backs off exponentially up to maxDelay without jitter', () => {
    const policy = new RetryPolicy({ attempts: 10, minDelay: 100, maxDelay: 1_000, jitter: false });
    assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => policy.delayAfter(failure(n))), [100, 200, 400, 800, 1_000, 1_000]);
  });

  it('spreads jittered delays between minDelay and the exponential ceiling', () => {
    const low = new RetryPolicy({ attempts: 10, minDelay: 100, maxDelay: 1_000 }, () => 0);
    const high = new RetryPolicy({ attempts: 10, minDelay: 100, maxDelay: 1_000 }, () => 0.999999);
    assert.deepEqual([1, 2, 3, 4].map((n) => low.delayAfter(failure(n))), [100, 100, 100, 100]);
    assert.deepEqual([1, 2, 3, 4].map((n) => high.delayAfter(failure(n))), [200, 400, 800, 1_000]);
    const random = new RetryPolicy({ attempts: 10, minDelay: 100, maxDelay: 1_000 });
    for (let i = 0; i < 200; i += 1) {
      const delay = random.delayAfter(failure(1 + (i % 8)));
      assert.ok(delay >= 100 && delay <= 1_000, `delay ${delay}`);
    }
  });

  it('honours Retry-After up to maxRetryAfter', () => {
    const policy = new RetryPolicy({ minDelay: 10, maxDelay: 20, maxRetryAfter: 5_000 });
    assert.equal(policy.delayAfter(failure(1, { retryAfter: 3_000 })), 3_000);
    assert.equal(policy.delayAfter(failure(1, { retryAfter: 3_600_000 })), 5_000);
  });

  it('never lets Retry-After shorten the wait below minDelay, so a 429 with Retry-After: 0 is no tight loop', () => {
    const policy = new RetryPolicy({ minDelay: 1_000, maxDelay: 60_000, maxRetryAfter: 60_000 }, () => 0);
    const tooMany = (retryAfter: number | undefined): AttemptFailure => failure(1, { status: 429, retryAfter });
    assert.equal(policy.delayAfter(tooMany(parseRetryAfter('0'))), 1_000);
    assert.equal(policy.delayAfter(tooMany(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT'))), 1_000); // a past date
    assert.equal(policy.delayAfter(tooMany(250)), 1_000);
    assert.equal(policy.delayAfter(tooMany(2_000)), 2_000);
    // minDelay wins over a maxRetryAfter set below it: it is the floor of every wait.
    assert.equal(new RetryPolicy({ minDelay: 1_000, maxRetryAfter: 0 }).delayAfter(tooMany(30_000)), 1_000);
  });

  it('stops after the last attempt, or when shouldRetry says so', () => {
    const policy = new RetryPolicy({ attempts: 3, shouldRetry: (f) => f.status !== 410 });
    assert.equal(policy.shouldRetry(failure(1)), true);
    assert.equal(policy.shouldRetry(failure(2)), true);
    assert.equal(policy.shouldRetry(failure(3)), false);
    assert.equal(policy.shouldRetry(failure(1, { status: 410 })), false);
    assert.equal(new RetryPolicy({ attempts: 1 }).shouldRetry(failure(1)), false);
    const throwing = new RetryPolicy({ shouldRetry: () => { throw new Error('bug'); } });
    assert.equal(throwing.shouldRetry(failure(1)), false);
    const thrown: unknown[] = [];
    assert.equal(throwing.shouldRetry(failure(1), (error) => thrown.push(error)), false);
    assert.deepEqual(thrown.map((error) => (error as Error).message), ['bug']);
  });

  it('by default retries every failure but a refused certificate, which no retry changes; a shouldRetry of yours decides alone', () => {
    const certificate = failure(1, { kind: 'certificate', status: undefined, error: new WebhookAttemptError('certificate', 'its TLS certificate was refused') });
    const policy = new RetryPolicy();
    assert.equal(policy.shouldRetry(certificate), false);
    for (const kind of ['status', 'redirect', 'timeout', 'network'] as const) assert.equal(policy.shouldRetry(failure(1, { kind })), true, kind);
    assert.equal(new RetryPolicy({ shouldRetry: () => true }).shouldRetry(certificate), true);
  });

  it('reads the predicate as a condition: truthy retries, falsy stops', () => {
    const answers: Array<[unknown, boolean]> = [[true, true], ['yes', true], [1, true], [{}, true], [false, false], [0, false], ['', false], [undefined, false], [null, false]];
    for (const [answer, retried] of answers) {
      assert.equal(new RetryPolicy({ shouldRetry: () => answer as boolean }).shouldRetry(failure(1)), retried, `shouldRetry returning ${String(answer)}`);
    }
    // The usual JavaScript shapes mean what they say.
    const serverErrorsOnly = new RetryPolicy({ shouldRetry: (f) => ((f.status ?? 0) >= 500 && 'yes') as boolean });
    assert.equal(serverErrorsOnly.shouldRetry(failure(1, { status: 503 })), true);
    assert.equal(serverErrorsOnly.shouldRetry(failure(1, { status: 404 })), false);
  });

  it('refuses an async shouldRetry at construction, and a Promise answer when asked, with ConfigError', async () => {
    assert.throws(
      () => new RetryPolicy({ shouldRetry: (async (f: AttemptFailure) => f.status !== 410) as never }),
      (error: unknown) => error instanceof ConfigError && error.field === 'retry.shouldRetry' && /must answer true or false synchronously.*\(got an async function\)/.test(error.message),
    );
    // A plain function returning a Promise (or any thenable) is only found out when it answers: it is never read as
    // "retry", and a rejected one does not become an unhandled rejection.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const answer of [() => Promise.resolve(false), () => Promise.reject(new Error('lookup failed')), () => ({ then: () => {} })]) {
        const policy = new RetryPolicy({ shouldRetry: answer as never });
        assert.throws(() => policy.shouldRetry(failure(1)), (error: unknown) => error instanceof ConfigError && error.field === 'retry.shouldRetry' && /\(got a (Promise|thenable)\)/.test(error.message));
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
  });

  it('throws ConfigError naming the field for unknown options, and for options that are not an object', () => {
    for (const [options, field] of [[{ maxAttempts: 1 }, 'retry.maxAttempts'], [{ attempt: 3 }, 'retry.attempt'], [3, 'retry'], [null, 'retry'], ['fast', 'retry']] as const) {
      assert.throws(() => new RetryPolicy(options as never), (error: unknown) => error instanceof ConfigError && error.field === field, field);
    }
    assert.throws(() => new RetryPolicy({ maxAttempts: 1 } as never), /known fields: attempts, minDelay, maxDelay, jitter, maxRetryAfter, shouldRetry/);
  });

  it('throws ConfigError for invalid options', () => {
    for (const options of [{ attempts: 0 }, { attempts: 1.5 }, { attempts: 101 }, { minDelay: -1 }, { maxDelay: Number.NaN }, { minDelay: 500, maxDelay: 100 }, { maxRetryAfter: -5 }, { maxDelay: 2 ** 31 }, { maxRetryAfter: 2 ** 31 }, { minDelay: 2 ** 31, maxDelay: 2 ** 31 }, { jitter: 'yes' }, { shouldRetry: 410 }]) {
      assert.throws(() => new RetryPolicy(options as never), ConfigError, JSON.stringify(options));
    }
  });

  it('says the default maxDelay is in the way when only a minDelay above it is given, and what to set', () => {
    assert.throws(
      () => new RetryPolicy({ minDelay: 120_000 }),
      (error: unknown) => error instanceof ConfigError && error.field === 'retry.maxDelay' && /is 60000 by default, below retry\.minDelay \(120000\); set retry\.maxDelay too, to at least 120000/.test(error.message),
    );
    assert.throws(() => new RetryPolicy({ minDelay: 500, maxDelay: 100 }), /Invalid retry\.maxDelay: must not be below retry\.minDelay \(500\) \(got 100\)/);
    assert.equal(new RetryPolicy({ minDelay: 120_000, maxDelay: 120_000 }).maxDelay, 120_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter(['5'], now), 5_000);
  });

  // RFC 9110 §5.6.7: recipients must accept all three forms, and all three are GMT. The expected values come from
  // Date.UTC, so they hold in any time zone; the next test runs the same reading under other zones.
  const rfcExample = Date.UTC(1994, 10, 6, 8, 49, 37);
  it('reads the three forms of RFC 9110 as GMT: IMF-fixdate, RFC 850, asctime', () => {
    const before = rfcExample - 37_000;
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', before), 37_000);
    assert.equal(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', before), 37_000);
    assert.equal(parseRetryAfter('Sun Nov  6 08:49:37 1994', before), 37_000);
    assert.equal(parseRetryAfter('Sun Nov 16 08:49:37 1994', before), 10 * 86_400_000 + 37_000);
    // What senders get wrong harmlessly: the names' case, a day without its padding.
    assert.equal(parseRetryAfter('sun, 6 NOV 1994 08:49:37 GMT', before), 37_000);
    assert.equal(parseRetryAfter('Sun Nov 6 08:49:37 1994', before), 37_000);
  });

  it('reads a two-digit RFC 850 year as the most recent past one when it would be over 50 years ahead', () => {
    const in2025 = Date.UTC(2025, 5, 1);
    assert.equal(parseRetryAfter('Tuesday, 03-Jun-25 12:00:00 GMT', in2025), Date.UTC(2025, 5, 3, 12) - in2025);
    // Far dates are capped at the longest timer (2^31 - 1 ms) and past ones are 0, which tells the century apart.
    assert.equal(parseRetryAfter('Saturday, 01-Jun-75 00:00:10 GMT', in2025), 2 ** 31 - 1, '2075: 50 years ahead, kept');
    assert.equal(parseRetryAfter('Monday, 01-Jun-76 00:00:10 GMT', in2025), 0, '2076 is over 50 years ahead: 1976');
    assert.equal(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', in2025), 0, '2094 is over 50 years ahead: 1994');
  });

  it('reads HTTP dates the same in every time zone', async () => {
    const script = `
      import { parseRetryAfter } from ${JSON.stringify(new URL('../../src/webhook/index.ts', import.meta.url).href)};
      const before = ${rfcExample - 37_000};
      console.log(JSON.stringify(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'].map((v) => parseRetryAfter(v, before))));`;
    for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati']) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { env: { ...process.env, TZ: zone }, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await once(child, 'exit');
      clearTimeout(timer);
      assert.deepEqual(JSON.parse(stdout), [37_000, 37_000, 37_000], `TZ=${zone}`);
    }
  });

  it('ignores absent or unreadable values', () => {
    const unreadable = [
      undefined, '', 'soon', '-3', '1.5', 'Sun, 06 Nov 1994 08:49:37', 'Sun, 06 Nov 1994 08:49:37 PST', 'Sun, 31 Feb 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 25:49:37 GMT', 'Sun, 06 Foo 1994 08:49:37 GMT', 'Sunday, 06-Nov-1994 08:49:37 GMT', 'Sun Nov   6 08:49:37 1994', '2025-06-01T12:00:00Z',
      'Sun, 00 Nov 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 08:60:37 GMT',
    ];
    for (const value of unreadable) assert.equal(parseRetryAfter(value, now), undefined, JSON.stringify(value));
  });
});
