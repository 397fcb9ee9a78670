// The shop's catalog: a JSON document of some 30 KB, built once, the same every time, which the API sends
// gzip-compressed to clients that accept it: the console then shows the body's size "decoded from" the size sent.
import { gzipSync } from 'node:zlib';

const CATEGORIES = ['food', 'toys', 'beds', 'leashes', 'grooming', 'aquariums'];
const KINDS = ['dog', 'cat', 'hamster', 'turtle', 'parrot', 'rabbit'];
const QUALITIES = ['Classic', 'Deluxe', 'Organic', 'Compact', 'Travel', 'Family'];
const PRODUCT_COUNT = 150;

export interface Catalog {
  /** The JSON document. */
  json: Buffer;
  /** The same, gzip-compressed. */
  gzip: Buffer;
}

let cached: Catalog | undefined;

export function catalog(): Catalog {
  if (cached) return cached;
  const products = Array.from({ length: PRODUCT_COUNT }, (_, index) => {
    const number = index + 1;
    const category = CATEGORIES[index % CATEGORIES.length]!;
    const kind = KINDS[Math.floor(index / CATEGORIES.length) % KINDS.length]!;
    return {
      sku: `SHOP-${String(number).padStart(4, '0')}`,
      name: `${QUALITIES[number % QUALITIES.length]} ${kind} ${category}`,
      category,
      for: kind,
      price: { amount: 299 + ((number * 173) % 4_700), currency: 'EUR' },
      inStock: number % 5 !== 0,
    };
  });
  const json = Buffer.from(JSON.stringify({ count: products.length, products }, null, 2) + '\n');
  // zlib's gzip header carries no time or name: the same document always compresses to the same bytes.
  cached = { json, gzip: gzipSync(json, { level: 9 }) };
  return cached;
}

/** Whether an Accept-Encoding header accepts gzip (by name or by `*`, with a quality above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const qualities = new Map<string, number>();
  for (const item of header.split(',')) {
    const [coding = '', ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    qualities.set(coding, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const gzip = qualities.get('gzip') ?? qualities.get('x-gzip') ?? qualities.get('*');
  return gzip !== undefined && gzip > 0;
}
