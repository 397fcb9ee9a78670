import { html } from 'lit';
import { MASK } from './url-credential-masking.js';

/** What screen readers hear for a mask: its bullets are read as "bullet bullet bullet…". */
export const MASK_NAME = 'hidden value';

/** A mask can be told from the bullets of `source` (the text it was masked from) only when there are none. */
const masksAreOurs = (source: string) => !source.includes(MASK[0]!);
/** A mask, and whether a character other than a space touches it on either side. */
const SPOKEN_MASK = new RegExp(`(?<=(\\S?))${MASK}(?=(\\S?))`, 'g');

/**
 * `text` (masked from `source`) to render, each mask in it named for screen readers: seen and copied by hand as its
 * bullets. As it is when `source` holds a bullet of its own: no mask is then called a hidden value, which may not be.
 */
export function withNamedMasks(text: string, source: string) {
  return masksAreOurs(source) && text.includes(MASK)
    ? text.split(MASK).map((part, index) => (index ? html`<span role="img" aria-label=${MASK_NAME}>${MASK}</span>${part}` : part))
    : text;
}

/**
 * `text` (masked from `source`) as said in an accessible name or an announcement, where no element can name a mask.
 * Spaced as Chromium spaces a named mask in a name from content: `/bot hidden value /getMe`, not one word `bothidden`.
 */
export function spokenMasks(text: string, source: string): string {
  return masksAreOurs(source) ? text.replace(SPOKEN_MASK, (_mask, before: string, after: string) => `${before && ' '}${MASK_NAME}${after && ' '}`) : text;
}
