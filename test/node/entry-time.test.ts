// The time a history row shows, written in the computer's current time zone: the formatters are kept between rows,
// and must not keep the zone of the first row after the computer moved to another.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatEntryTime } from '../../src/components/request-history/entry-time.js';

describe('formatEntryTime', () => {
  const zone = process.env.TZ;
  after(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('writes the time in the time zone the computer is in now, not the one of its first use', () => {
    const made = new Date('2026-03-10T12:00:00Z');
    const now = new Date('2026-03-10T12:30:00Z');
    process.env.TZ = 'UTC'; // Node applies a new TZ at once, to Date and to new formatters
    const inLondon = formatEntryTime(made, now);
    process.env.TZ = 'Asia/Tokyo';
    const inTokyo = formatEntryTime(made, now);
    assert.equal(inTokyo, new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(made));
    assert.notEqual(inTokyo, inLondon);
  });
});
