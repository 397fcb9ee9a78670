/** Where each visible character of `element`'s text is drawn, left edge in px, in text order. */
export function drawnAt(element: Element): number[] {
  const lefts: number[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('.visually-hidden')) continue;
    for (let i = 0; i < node.textContent!.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      lefts.push(range.getBoundingClientRect().left);
    }
  }
  return lefts;
}
