// Loaded before every browser test file (web-test-runner.config.mjs). A failed assertion about an element, such as
// `expect(element).to.equal(other)`, carries the element as its actual or expected value, and the runner sends
// those to Node through a stringifier that walks every enumerable property: from an element, the whole document
// and window. The run then stalls until its five-minute limit and reports a disconnected browser, not the
// assertion. A short description of each DOM value keeps the failure readable and the run going.

const MAX_DEPTH = 4;

/** `value` with every DOM node, window or event target in it (to `MAX_DEPTH`) replaced by a short description. */
export function readableValue(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Element) return `<${value.localName}${value.id ? `#${value.id}` : ''}>`;
  if (value instanceof Node) return `[${value.nodeName}]`;
  if (value instanceof EventTarget) return `[${value.constructor.name}]`;
  if (depth >= MAX_DEPTH) return value;
  // Lists of nodes (querySelectorAll's, an element's children) and collections, as the arrays they hold.
  if (value instanceof NodeList || value instanceof HTMLCollection || value instanceof Set) return [...value].map((item) => readableValue(item, depth + 1));
  if (value instanceof Map) return [...value].map((entry) => readableValue(entry, depth + 1));
  if (Array.isArray(value)) return value.map((item) => readableValue(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, readableValue(item, depth + 1)]));
}

afterEach(function describeDomValues() {
  const error = this.currentTest?.err as { actual?: unknown; expected?: unknown } | undefined;
  if (error === undefined) return;
  error.actual = readableValue(error.actual);
  error.expected = readableValue(error.expected);
});
