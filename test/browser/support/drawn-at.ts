/** Each visible character of `element`'s text with the box it is drawn in, in text order. */
export function drawnCharacters(element: Element): { character: string; box: DOMRect }[] {
  const characters: { character: string; box: DOMRect }[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('.visually-hidden')) continue;
    for (let i = 0; i < node.textContent!.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      characters.push({ character: node.textContent![i]!, box: range.getBoundingClientRect() });
    }
  }
  return characters;
}

/** Where each visible character of `element`'s text is drawn, left edge in px, in text order. */
export function drawnAt(element: Element): number[] {
  return drawnCharacters(element).map(({ box }) => box.left);
}
