// The pets as XML, for the integrations that still ask for it: sent on one line, as many XML APIs send it, so the
// console's layout of XML shows.
import type { Pet } from './pet-store.js';

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character]!);
}

export function petsAsXml(pets: readonly Pet[]): string {
  const items = pets.map((pet) => `<pet id="${pet.id}"><name>${escapeXml(pet.name)}</name><tag>${escapeXml(pet.tag)}</tag><status>${pet.status}</status></pet>`);
  return `<?xml version="1.0" encoding="UTF-8"?><pets count="${pets.length}">${items.join('')}</pets>`;
}
