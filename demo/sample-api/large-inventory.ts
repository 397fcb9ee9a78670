// The "large JSON" endpoint's body: about 5 MB, built once on first use and kept, deterministic so tests can count on it.

const TAGS = ['dog', 'cat', 'hamster', 'turtle', 'parrot', 'rabbit'];
const TARGET_BYTES = 5 * 1024 * 1024;

let cached: Buffer | undefined;

export function largeInventory(): Buffer {
  if (cached) return cached;
  const items: string[] = [];
  let size = 0;
  for (let i = 1; size < TARGET_BYTES; i += 1) {
    const item = JSON.stringify({
      sku: `PET-${String(i).padStart(7, '0')}`,
      name: `Pet number ${i}`,
      tag: TAGS[i % TAGS.length],
      status: i % 7 === 0 ? 'adopted' : 'available',
      price: { amount: 1_000 + ((i * 37) % 9_000), currency: 'EUR' },
      vaccinated: i % 3 !== 0,
      notes: 'Friendly, house-trained and good with children. Loves long walks and short naps.',
    });
    items.push(item);
    size += item.length + 1;
  }
  cached = Buffer.from(`{"count":${items.length},"items":[${items.join(',')}]}\n`);
  return cached;
}
