const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', second: '2-digit' };
const DAY: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', ...TIME };
/**
 * Made once per clock offset: a formatter costs far more to make than to use, and a list may show thousands of times;
 * but it keeps the time zone it was made in, and the computer may have moved to another since.
 */
let formats: { offset: number; byAge: Intl.DateTimeFormat[] } | undefined;

/**
 * When an entry was made, as a row shows it: the time alone for today, with the day before it otherwise (and the
 * year when not this year). History persists for days: "2:06:39 PM" alone read as today's.
 */
export function formatEntryTime(date: Date, now: Date): string {
  const offset = now.getTimezoneOffset();
  if (formats?.offset !== offset) {
    formats = { offset, byAge: [TIME, DAY, { year: 'numeric', ...DAY } as const].map((options) => new Intl.DateTimeFormat(undefined, options)) };
  }
  const which = date.toDateString() === now.toDateString() ? 0 : date.getFullYear() === now.getFullYear() ? 1 : 2;
  return formats.byAge[which]!.format(date);
}
