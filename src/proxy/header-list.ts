// Header fields as the proxy relays them: one [name, value] pair per field line, in the order received, names as
// written. An object keyed by name (Node's `request.headers`, undici's default response headers) loses what a
// faithful relay must keep: Node joins some repeated fields and keeps only the first of others, objects put
// numeric names first, names are lowercased, and Node leaves a field named `__proto__` out.

/** Header field lines, in order. */
export type HeaderList = Array<[name: string, value: string]>;

/** Pairs up a flat `[name, value, name, value…]` array: Node's `rawHeaders`, undici's raw headers. */
export function pairHeaders(raw: readonly string[]): HeaderList {
  const list: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) list.push([raw[i]!, raw[i + 1]!]);
  return list;
}

/** The flat form undici takes, which keeps repeats and order (an object could not). */
export function flattenHeaders(list: HeaderList): string[] {
  return list.flat();
}

/** Every value of the field `name` (lowercase), in order. */
export function headerValues(list: HeaderList, name: string): string[] {
  return list.filter(([field]) => field.toLowerCase() === name).map(([, value]) => value);
}

/** `list` without the fields named in `names` (lowercase). */
export function withoutHeaders(list: HeaderList, names: readonly string[]): HeaderList {
  return list.filter(([field]) => !names.includes(field.toLowerCase()));
}
