// Sizes and durations as refusal messages give them to the person at the console: `10 MiB` and `30 seconds`, not
// `10485760 bytes` and `30000 ms`, which they would have to work out.

/** Binary units, as the caps are usually set (`10 * 1024 * 1024`) and as the README states them. */
const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** `512 bytes`, `1.5 KiB`, `10 MiB`: to one decimal, with no `.0`. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  // The unit is chosen after rounding: 1,048,575 bytes is 1 MiB, not 1024 KiB.
  while (unit < BYTE_UNITS.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${BYTE_UNITS[unit]}`;
}

/**
 * A size over a limit and the limit, each as `formatByteSize` gives it, or in exact bytes when rounded they would read
 * the same: "1 MiB, more than this proxy relays (1 MiB)" would read as a contradiction.
 */
export function formatSizeOverLimit(size: number, limit: number): { size: string; limit: string } {
  const [roundedSize, roundedLimit] = [formatByteSize(size), formatByteSize(limit)];
  if (roundedSize !== roundedLimit) return { size: roundedSize, limit: roundedLimit };
  return { size: `${grouped(size)} bytes`, limit: `${grouped(limit)} bytes` };
}

/** `200 ms`, `1.5 seconds`, `1 minute`, `5 minutes`, `2 hours`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${milliseconds} ms`;
  if (milliseconds % 3_600_000 === 0) return counted(milliseconds / 3_600_000, 'hour');
  if (milliseconds % 60_000 === 0) return counted(milliseconds / 60_000, 'minute');
  return counted(Number((milliseconds / 1000).toFixed(1)), 'second');
}

function counted(count: number, unit: string): string {
  return `${count} ${count === 1 ? unit : `${unit}s`}`;
}

/** `10,485,760`: digits grouped in threes, the same in every locale (the message is not localised). */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
