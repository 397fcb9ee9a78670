// The pets as XML, for the integrations that still ask for it: sent on one line, as many XML APIs send it, so the
// console's layout of XML shows.
import { escapeMarkup } from '../http/markup.js';
import type { Pet } from './pet-store.js';

export function petsAsXml(pets: readonly Pet[]): string {
  const items = pets.map((pet) => `<pet id="${pet.id}"><name>${escapeMarkup(pet.name)}</name><tag>${escapeMarkup(pet.tag)}</tag><status>${pet.status}</status></pet>`);
  return `<?xml version="1.0" encoding="UTF-8"?><pets count="${pets.length}">${items.join('')}</pets>`;
}
