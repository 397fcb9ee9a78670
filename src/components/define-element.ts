/** Marks the element classes of every copy of this package, so that two copies on one page know each other. */
const OURS = Symbol.for('try-it-console.element');

/**
 * Defines `tag` as `element` unless the tag is taken. Taken by another copy of this package (the standalone bundle
 * and the npm entry on one page), that copy's element works alike, but `instanceof` this copy's classes fails; taken
 * by another library, its element shows where ours would. Either is said in the console, as nothing else would.
 */
export function defineElement(tag: string, element: CustomElementConstructor): void {
  Object.defineProperty(element, OURS, { value: true });
  const defined = customElements.get(tag);
  if (!defined) customElements.define(tag, element);
  else if (defined === element) return;
  else if (OURS in defined) {
    console.warn(`try-it-console: <${tag}> is defined by another copy of try-it-console already (the standalone bundle and the npm package on one page?); that copy's element is used, so instanceof checks against this copy's classes fail. Load one copy.`);
  } else {
    console.warn(`try-it-console: <${tag}> is defined by another library already; its element shows wherever try-it-console's would. Load try-it-console before it, or drop one of the two.`);
  }
}
