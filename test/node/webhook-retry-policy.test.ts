import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
  });

  it('throws ConfigError for invalid options', () => {
    for (const options of [{ attempts: 0 }, { attempts: 1.5 }, { attempts: 101 }, { minDelay: -1 }, { maxDelay: Number.NaN }, { minDelay: 500, maxDelay: 100 }, { maxRetryAfter: -5 }, { jitter: 'yes' }, { shouldRetry: 410 }]) {
      assert.throws(() => new RetryPolicy(options as never), ConfigError, JSON.stringify(options));
    }
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
  it('ignores absent or unreadable values', () => {
    for (const value of [undefined, '', 'soon', '-3', '1.5']) assert.equal(parseRetryAfter(value, now), undefined, JSON.stringify(value));
  });
});
