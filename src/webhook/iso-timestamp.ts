// ISO 8601 date-times as RFC 3339 profiles them, the form `Date.prototype.toISOString` writes. Read here rather than
// with `Date.parse`, which also takes "Jan 2 2025", reads a time without an offset as local time and rolls 30 Feb
// over into March.

// 2025-01-02T03:04:05.678Z, or with an offset: 2025-01-02T05:04:05+02:00. A single space may stand for the T, as
// RFC 3339 §5.6's note allows: 2025-01-02 03:04:05.678Z, or 2025-01-02 03:04:05.678000+00:00 as Python's str()
// writes an aware datetime.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch for an RFC 3339 date-time, or `undefined` when `text` is not one. */
export function parseIsoTimestamp(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  // A leap second (60) is allowed by the grammar; it is read as the next second's start.
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return undefined;
  const [sign, offsetHours, offsetMinutes] = [match[8], Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  // setUTCFullYear, unlike Date.UTC, leaves years 0 to 99 alone; both roll 31 Feb over into March, refused here.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCDate() !== d) return undefined;
  date.setUTCHours(h, mi, s, Number((match[7] ?? '').padEnd(3, '0').slice(0, 3)));
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return date.getTime() - offset;
}
