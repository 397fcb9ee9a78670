// IP address parsing in every notation a URL, a resolver or an attacker may use. Pure: no DNS, no sockets.

/** A parsed address: IPv4 as an unsigned 32-bit number, IPv6 as a 128-bit bigint. */
export type IpAddress = { family: 4; value: number } | { family: 6; value: bigint };

const IPV4_MAX = 0xffff_ffff;

/**
 * Parses IPv4 the way `inet_aton` and the WHATWG URL parser do: one to four parts, each decimal, octal
 * (leading `0`) or hex (`0x`), the last part filling the remaining bytes. So `127.1`, `0177.0.0.1`,
 * `0x7f000001` and `2130706433` all give 127.0.0.1.
 */
export function parseIpv4(text: string): number | undefined {
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length > 4) return undefined;
  const numbers = parts.map(parseIpv4Part);
  if (numbers.some((n) => n === undefined)) return undefined;
  const values = numbers as number[];
  const last = values.pop()!;
  if (values.some((n) => n > 0xff)) return undefined;
  if (last >= 256 ** (4 - values.length)) return undefined;
  const leading = values.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0);
  return leading + last;
}

function parseIpv4Part(part: string): number | undefined {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  if (digits === '') return radix === 16 ? 0 : undefined;
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return undefined;
  const value = parseInt(digits, radix);
  return value <= IPV4_MAX ? value : undefined;
}

/** Strict dotted-quad decimal, the only IPv4 form allowed inside an IPv6 address (`::ffff:127.0.0.1`). */
function parseDottedQuad(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  if (bytes.some((b) => b > 255)) return undefined;
  return bytes.reduce((sum, b) => sum * 256 + b, 0);
}

/**
 * Parses IPv6 in any RFC 4291 text form: `::` compression, an embedded dotted IPv4 tail, optional
 * surrounding brackets (as in URLs) and an optional zone (`fe80::1%eth0`), which is ignored.
 */
export function parseIpv6(text: string): bigint | undefined {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone !== -1) body = body.slice(0, zone);
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const compressed = halves.length === 2;
  const head = parseGroups(halves[0]!, compressed ? 7 : 8, !compressed);
  const tail = compressed ? parseGroups(halves[1]!, 7, true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(compressed ? missing : 0).fill(0), ...tail];
  return groups.reduce((sum, g) => (sum << 16n) | BigInt(g), 0n);
}

/** Colon-separated 16-bit groups; a dotted IPv4 last group (where allowed) counts as two. */
function parseGroups(text: string, maxGroups: number, dottedTail: boolean): number[] | undefined {
  if (text === '') return [];
  const pieces = text.split(':');
  const groups: number[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (dottedTail && i === pieces.length - 1 && piece.includes('.')) {
      const v4 = parseDottedQuad(piece);
      if (v4 === undefined) return undefined;
      groups.push(v4 >>> 16, v4 & 0xffff);
    } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups.length <= maxGroups ? groups : undefined;
}

/** Parses an IP address of either family, or returns `undefined` for anything that is not one. */
export function parseIpAddress(text: string): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

/**
 * A key equal for every notation of one address, `undefined` for text that is not one; a zone is ignored. An
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) has the key of its IPv4 address: a dual-stack socket reaches the same
 * host through either.
 */
export function addressKey(text: string): string | undefined {
  const parsed = parseIpAddress(text.trim());
  if (parsed === undefined) return undefined;
  if (parsed.family === 6 && parsed.value >> 32n === 0xffffn) return `4:${parsed.value & 0xffff_ffffn}`;
  return `${parsed.family}:${parsed.value}`;
}
