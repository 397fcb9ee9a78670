// A timestamp string that is not ISO 8601 is refused: `new Date('Feb 30 2024')` is 1 March in V8 (Node, Chromium), where
// other engines read such strings their own way, so an entry was stamped with a day that does not exist, or another
// day in another browser. The first test failed on the code as it was before the fix.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, InvalidArgumentError, type HistoryEntryInput, type HistoryStore } from '../../src/core/index.js';

const entry = (timestamp: HistoryEntryInput['timestamp']): HistoryEntryInput => ({ method: 'GET', url: 'https://api.example/', status: 200, duration: 1, timestamp });

describe('History: a timestamp string that is not ISO 8601', () => {
  it('is refused, a day that does not exist (Feb 30) as one that does, saying what to give instead', () => {
    const history = new History({ enabled: true });
    for (const timestamp of ['Feb 30 2024', '30 Feb 2024', '2/30/2024', '2024/02/30', '2024 Feb 30', 'February 29, 2024', 'Thu Feb 29 2024 10:00:00 GMT+0000', '2024-02 30', '20240229']) {
      assert.throws(
        () => history.add(entry(timestamp)),
        (error: unknown) => error instanceof InvalidArgumentError && error.argument === 'entry.timestamp' && /must be a Date, an ISO 8601 string or epoch milliseconds/.test(error.message),
        timestamp,
      );
    }
    assert.equal(history.size, 0);
  });

  it('is skipped when a stored record holds it, as a damaged record is', async () => {
    const record = (id: string, timestamp: string) => ({ entry: { id, timestamp, method: 'GET', url: 'https://api.example/', headers: {}, body: '', status: 200, duration: 1 }, addedAt: 1 });
    const store: HistoryStore = { load: async () => [record('rolled', 'Feb 30 2024'), record('iso', '2024-02-29T10:00:00Z')], put: async () => {}, delete: async () => {}, clear: async () => {} };
    const history = new History({ enabled: true }, { store, onWarning: () => {} });
    await history.ready();
    assert.deepEqual(history.list().map((stored) => [stored.id, stored.timestamp.toISOString()]), [['iso', '2024-02-29T10:00:00.000Z']]);
  });

  it('leaves ISO 8601 strings read as before: a date, a year and month, a date-time with a space or a lowercase t', () => {
    const history = new History({ enabled: true });
    const cases: [string, string][] = [
      ['2024', '2024-01-01T00:00:00.000Z'],
      ['2024-02', '2024-02-01T00:00:00.000Z'],
      ['2024-02T10:00Z', '2024-02-01T10:00:00.000Z'],
      [' 2024-02-29', '2024-02-29T00:00:00.000Z'],
      ['2024-02-29 10:00Z', '2024-02-29T10:00:00.000Z'],
      ['2024-02-29t10:00z', '2024-02-29T10:00:00.000Z'],
    ];
    for (const [timestamp, iso] of cases) assert.equal(history.add(entry(timestamp)).timestamp.toISOString(), iso, timestamp);
    assert.throws(() => history.add(entry('2024-02-30T10:00:00Z')), /names a day that does not exist/);
  });
});
