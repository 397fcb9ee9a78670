// A timestamp given as a string names a day that exists: `new Date('2024-02-30')` is 1 March in V8 (Node, Chromium)
// and Invalid Date in other engines, so an entry would be stamped with another day, or only in some browsers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, InvalidArgumentError, type HistoryEntryInput } from '../../src/core/index.js';

const entry = (timestamp: HistoryEntryInput['timestamp']): HistoryEntryInput => ({ method: 'GET', url: 'https://api.example/', status: 200, duration: 1, timestamp });

describe('History: a timestamp given as a string', () => {
  it('is refused when its day does not exist, with a message that says so', () => {
    const history = new History({ enabled: true });
    for (const timestamp of ['2024-02-30', '2024-13-01', '2023-02-29T10:00:00Z', '2024-04-31T23:00:00+02:00', '2024-01-00', '1900-02-29', '2024-2-30 10:00']) {
      assert.throws(
        () => history.add(entry(timestamp)),
        (error: unknown) =>
          error instanceof InvalidArgumentError && error.argument === 'entry.timestamp' && /names a day that does not exist/.test(error.message) && error.message.includes(timestamp),
        timestamp,
      );
    }
    assert.equal(history.size, 0);
  });

  it('is read as before when it is a valid ISO 8601 date or date-time: with an offset, fractional seconds, date only', () => {
    const history = new History({ enabled: true });
    const cases: [string, string][] = [
      ['2024-02-29', '2024-02-29T00:00:00.000Z'],
      ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z'],
      ['2024-12-31T23:59:59.999Z', '2024-12-31T23:59:59.999Z'],
      ['2024-03-01T01:30:00+02:00', '2024-02-29T23:30:00.000Z'],
      ['2024-01-01T10:00:00.5-05:00', '2024-01-01T15:00:00.500Z'],
      ['2024-01-31T24:00:00Z', '2024-02-01T00:00:00.000Z'],
      ['+010000-01-01T00:00:00Z', '+010000-01-01T00:00:00.000Z'],
      ['2024-02', '2024-02-01T00:00:00.000Z'],
    ];
    for (const [timestamp, iso] of cases) assert.equal(history.add(entry(timestamp)).timestamp.toISOString(), iso, timestamp);
  });

  it('keeps the message for a string that is no date at all, and takes Dates and epoch milliseconds as before', () => {
    const history = new History({ enabled: true });
    assert.throws(() => history.add(entry('not a date')), /must be a Date, an ISO 8601 string or epoch milliseconds/);
    assert.throws(() => history.add(entry('2024-01-01T25:00:00Z')), /must be a Date, an ISO 8601 string or epoch milliseconds/);
    assert.equal(history.add(entry(Date.UTC(2024, 1, 29))).timestamp.toISOString(), '2024-02-29T00:00:00.000Z');
    assert.equal(history.add(entry(new Date(Date.UTC(2023, 2, 1)))).timestamp.toISOString(), '2023-03-01T00:00:00.000Z');
  });
});
