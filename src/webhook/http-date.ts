// HTTP dates as RFC 9110 §5.6.7 defines them. Recipients must accept all three forms, and all three are GMT:
// `Date.parse` reads the RFC 850 form not at all and the asctime form in the local time zone, so they are read here.
// Names are read in any case and a day may lack its padding, as senders get those wrong harmlessly.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE = new RegExp(`^[a-z]{3}, (\\d{1,2}) ([a-z]{3}) (\\d{4}) ${TIME} GMT$`, 'i');
// Sunday, 06-Nov-94 08:49:37 GMT
const RFC_850 = new RegExp(`^[a-z]{6,9}, (\\d{1,2})-([a-z]{3})-(\\d{2}) ${TIME} GMT$`, 'i');
// Sun Nov  6 08:49:37 1994 (a single-digit day is padded with a space)
const ASCTIME = new RegExp(`^[a-z]{3} ([a-z]{3}) {1,2}(\\d{1,2}) ${TIME} (\\d{4})$`, 'i');

/** Milliseconds since the epoch for an HTTP date in any of the three forms, or `undefined` when it is not one. */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(match[3]!, match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = RFC_850.exec(text);
  if (match) return utc(String(fullYear(Number(match[3]), now)), match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = ASCTIME.exec(text);
  if (match) return utc(match[6]!, match[1]!, match[2]!, match[3]!, match[4]!, match[5]!);
  return undefined;
}

// RFC 9110: a two-digit year more than 50 years in the future means the most recent past year with those digits.
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const candidate = thisYear - (thisYear % 100) + twoDigits;
  return candidate > thisYear + 50 ? candidate - 100 : candidate;
}

function utc(year: string, monthName: string, day: string, hour: string, minute: string, second: string): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  const [y, d, h, m, s] = [year, day, hour, minute, second].map(Number) as [number, number, number, number, number];
  // A leap second (60) is allowed by the grammar; it is read as the next second's start.
  if (month < 0 || d < 1 || h > 23 || m > 59 || s > 60) return undefined;
  const time = Date.UTC(y, month, d, h, m, s);
  // Date.UTC rolls 31 Feb over into March: refuse days the month does not have.
  return new Date(time - (s === 60 ? 1000 : 0)).getUTCDate() === d ? time : undefined;
}
